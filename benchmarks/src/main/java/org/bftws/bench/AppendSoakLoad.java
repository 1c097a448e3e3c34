package org.bftws.bench;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;

/**
 * The echo sample's soak load: {@link AppendClients} appending unique values, judged by {@link ExactlyOnce} against
 * each replica's log. The echo keeps every value, so the replicas' heap grows with the run.
 */
final class AppendSoakLoad implements SoakLoad {

    private final AppendClients clients;

    AppendSoakLoad(AppendClients clients) {
        this.clients = clients;
    }

    @Override
    public void start(int count) {
        clients.start("s", count);
    }

    @Override
    public void stop() throws InterruptedException {
        clients.stop();
    }

    @Override
    public int ok() {
        return clients.accepted().size();
    }

    @Override
    public List<String> failures() {
        return clients.failed().stream().map(c -> c.value() + " after "
                + String.format(java.util.Locale.ROOT, "%.1f", (c.endNanos() - c.startNanos()) / 1e9) + " s: "
                + c.problem()).toList();
    }

    @Override
    public int settleAtLeast() {
        return clients.accepted().size();
    }

    @Override
    public Judgement judge(Map<String, EchoStateProbe.Reading> states, PrintStream out) {
        List<AppendClients.Call> calls = clients.calls();
        ExactlyOnce.Result worst = null;
        for (Map.Entry<String, EchoStateProbe.Reading> e : states.entrySet()) {
            ExactlyOnce.Result r = ExactlyOnce.check(e.getValue().entries(), calls);
            out.println("soak: " + e.getKey() + " executed " + e.getValue().count() + " appends, digest "
                    + e.getValue().digest() + ": " + r.summary() + (r.holds() ? "" : " " + r.examples()));
            if (worst == null || !r.holds()) {
                worst = r;
            }
        }
        return new Judgement(worst.summary(), worst.holds());
    }

    @Override
    public void close() throws InterruptedException {
        clients.close();
    }
}
