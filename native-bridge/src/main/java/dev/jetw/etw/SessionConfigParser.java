package dev.jetw.etw;

/** PLACEHOLDER: the configuration helper replaces this with the key=value parser. */
final class SessionConfigParser {
    private SessionConfigParser() {
    }

    static SessionConfig.Builder parse(String options) {
        throw new UnsupportedOperationException("not yet");
    }
}
