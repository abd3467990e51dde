package dev.jetw.etw;

/** A bad configuration value: the message names the key, the value and what is allowed. */
public class ConfigException extends IllegalArgumentException {

    private final String key;
    private final String value;

    public ConfigException(String key, String value, String allowed) {
        super(key + "=" + value + ": " + allowed);
        this.key = key;
        this.value = value;
    }

    public String key() { return key; }

    public String value() { return value; }
}
