package org.bftws.axis2.client;

import org.bftws.axis2.settings.ModuleParameters;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.ConfigurationContextFactory;
import org.apache.axis2.deployment.FileSystemConfigurator;
import org.apache.axis2.description.AxisModule;
import org.apache.axis2.description.Parameter;
import org.apache.axis2.engine.AxisConfiguration;

/**
 * Builds an Axis2 ConfigurationContext whose bftws module is pointed at a replicas.xml and a party name without
 * system properties, so one JVM can hold several parties (a client library next to other Axis2 code, or a test with
 * several replicas). Axis2 initialises modules while it creates the context, so the parameters are set on the bftws
 * module between loading the configuration and that initialisation. System properties {@code bftws.NAME} still win,
 * as everywhere in the module.
 */
public final class BftwsConfigurator extends FileSystemConfigurator {

    private final Map<String, String> parameters;

    /** Extends rather than wraps: Axis2 hands the new context only to a configurator that is a DeploymentEngine. */
    private BftwsConfigurator(String repository, String axis2Xml, Map<String, String> parameters) throws AxisFault {
        super(repository, axis2Xml);
        this.parameters = parameters;
    }

    /**
     * A context from {@code repository} (null: modules found on the classpath only) and {@code axis2Xml} (null: the
     * repository's axis2.xml, else Axis2's default), with the bftws module reading {@code replicasXml} (null: none,
     * every target is a plain WS-RM endpoint) as party {@code party} (null: no keys).
     */
    public static ConfigurationContext context(Path repository, Path axis2Xml, Path replicasXml, String party)
            throws AxisFault {
        requireExisting(repository, "Axis2 repository");
        requireExisting(axis2Xml, "axis2.xml");
        requireExisting(replicasXml, "replicas.xml");
        Map<String, String> parameters = new LinkedHashMap<>();
        if (replicasXml != null) {
            parameters.put("replicasConfig", replicasXml.toAbsolutePath().toString());
        }
        if (party != null) {
            parameters.put("party", party);
        }
        return ConfigurationContextFactory.createConfigurationContext(new BftwsConfigurator(
                repository == null ? null : repository.toAbsolutePath().toString(),
                axis2Xml == null ? null : axis2Xml.toAbsolutePath().toString(), parameters));
    }

    private static void requireExisting(Path file, String what) throws AxisFault {
        if (file != null && !Files.exists(file)) {
            throw new AxisFault("bftws: the " + what + " " + file.toAbsolutePath() + " does not exist");
        }
    }

    @Override
    public synchronized AxisConfiguration getAxisConfiguration() throws AxisFault {
        AxisConfiguration configuration = super.getAxisConfiguration();
        AxisModule module = configuration.getModule(ModuleParameters.MODULE_NAME);
        if (module == null) {
            throw new AxisFault("bftws: the bftws module was not found: put the bftws-module jar (which has"
                    + " META-INF/module.xml) on the classpath or bftws.mar into the repository's modules directory");
        }
        for (Map.Entry<String, String> p : parameters.entrySet()) {
            module.addParameter(new Parameter(p.getKey(), p.getValue()));
        }
        return configuration;
    }

    /** Runs after the modules' init: a bftws module that failed there is reported, not silently dropped. */
    @Override
    public void engageGlobalModules() throws AxisFault {
        String problem = startupProblem(axisConfig);
        if (problem != null) {
            throw new AxisFault("bftws: the bftws module did not start: " + problem);
        }
        super.engageGlobalModules();
    }

    /**
     * Why the bftws module failed to initialise in {@code configuration}, or null. Axis2 removes a module whose init
     * threw, logs the error at INFO and carries on, so without this check the engine would run without it.
     */
    public static String startupProblem(AxisConfiguration configuration) {
        for (Map.Entry<String, String> faulty : configuration.getFaultyModules().entrySet()) {
            if (faulty.getKey().contains(ModuleParameters.MODULE_NAME)) {
                return faulty.getValue();
            }
        }
        return null;
    }
}
