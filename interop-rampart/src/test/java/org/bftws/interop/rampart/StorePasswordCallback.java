package org.bftws.interop.rampart;

import javax.security.auth.callback.Callback;
import javax.security.auth.callback.CallbackHandler;
import org.apache.wss4j.common.ext.WSPasswordCallback;

/** Gives Rampart the password of the client's private key: keygen protects every key with the store password. */
public class StorePasswordCallback implements CallbackHandler {
    static volatile String password = "pw";

    @Override
    public void handle(Callback[] callbacks) {
        for (Callback c : callbacks) {
            if (c instanceof WSPasswordCallback pc) {
                pc.setPassword(password);
            }
        }
    }
}
