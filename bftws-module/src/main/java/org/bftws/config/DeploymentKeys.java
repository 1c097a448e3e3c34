package org.bftws.config;

import java.nio.file.Path;

/**
 * The {@code <keys>} element: one truststore and one store password for the whole deployment, because a node of
 * one group is a client of another in multi-tier deployments and everyone must trust the same CA.
 *
 * @param truststore absolute path, or null when the file has no {@code <keys>}
 * @param password   the store password, or null when none is configured
 * @param element    where it was declared, for error messages; null when absent
 */
record DeploymentKeys(Path truststore, String password, XmlElement element) {

    static DeploymentKeys read(XmlElement keys, Path base, ConfigProblems problems) {
        if (keys == null) {
            return new DeploymentKeys(null, null, null);
        }
        Path truststore = base.resolve(keys.required("truststore")).normalize();
        String password = keys.attribute("storePassword").orElse(null);
        String variable = keys.attribute("storePasswordEnv").orElse(null);
        if (password != null && variable != null) {
            problems.add(keys, "sets both storePassword and storePasswordEnv; keep one");
        } else if (variable != null) {
            password = System.getenv(variable);
            if (password == null || password.isEmpty()) {
                problems.add(keys, "takes the store password from environment variable " + variable
                        + ", which is not set");
            }
        } else if (password == null) {
            problems.add(keys, "needs storePassword or storePasswordEnv (the password of the keystores)");
        }
        return new DeploymentKeys(truststore, password, keys);
    }

    KeysConfig toConfig() {
        return truststore == null ? null : new KeysConfig(truststore, password);
    }

    /** Where keygen puts, and nodes find, the keystore of a party whose element names none. */
    Path defaultKeystore(String name) {
        return truststore == null ? null : truststore.resolveSibling(name + ".p12");
    }
}
