package dev.jetw.etw;

/** WNODE_HEADER.ClientContext: the clock that stamps events (and TRACE_LOGFILE_HEADER.ReservedFlags). */
public enum ClockType {
    QPC("qpc", 1),
    SYSTEM("system", 2),
    CYCLE("cycle", 3);

    private final String optionName;
    private final int clientContext;

    ClockType(String optionName, int clientContext) {
        this.optionName = optionName;
        this.clientContext = clientContext;
    }

    public String optionName() {
        return optionName;
    }

    public int clientContext() {
        return clientContext;
    }

    public static ClockType byOptionName(String name) {
        String n = name.trim().toLowerCase(java.util.Locale.ROOT);
        for (ClockType c : values()) {
            if (c.optionName.equals(n)) {
                return c;
            }
        }
        return null;
    }
}
