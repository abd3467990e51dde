package dev.jetw.etw;

import java.util.ArrayList;
import java.util.List;

/** PLACEHOLDER: the configuration helper replaces this with the documented rules. */
final class SessionConfigValidator {
    private SessionConfigValidator() {
    }

    static List<String> validate(SessionConfig.Builder b) {
        return new ArrayList<>();
    }
}
