package org.bftws.axis2.settings;

import org.apache.axis2.description.AxisModule;
import org.apache.axis2.description.ModuleConfiguration;
import org.apache.axis2.description.Parameter;
import org.apache.axis2.engine.AxisConfiguration;

/**
 * Where the bftws module's settings come from, in order of precedence: a system property {@code bftws.<name>},
 * a {@code <moduleConfig name="bftws">} parameter in axis2.xml (Axis2 keeps those on the AxisConfiguration, not on
 * the module), and the module's own module.xml parameter.
 */
public final class ModuleParameters {

    public static final String MODULE_NAME = "bftws";

    private ModuleParameters() {
    }

    /** The setting's value, trimmed, or null when none of the three places sets it (or it is blank). */
    public static String value(AxisConfiguration config, String name) {
        String sys = System.getProperty(MODULE_NAME + "." + name);
        if (sys != null && !sys.isBlank()) {
            return sys.trim();
        }
        if (config != null) {
            ModuleConfiguration moduleConfig = config.getModuleConfig(MODULE_NAME);
            String v = moduleConfig == null ? null : text(moduleConfig.getParameter(name));
            if (v != null) {
                return v;
            }
            AxisModule module = config.getModule(MODULE_NAME);
            return module == null ? null : text(module.getParameter(name));
        }
        return null;
    }

    private static String text(Parameter p) {
        if (p == null || p.getValue() == null) {
            return null;
        }
        String v = String.valueOf(p.getValue()).trim();
        return v.isEmpty() ? null : v;
    }
}
