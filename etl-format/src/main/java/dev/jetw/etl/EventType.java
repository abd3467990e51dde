package dev.jetw.etl;

/** EVENT_TRACE_TYPE_* values for {@code Class.Type} (evntrace.h). */
public final class EventType {
    public static final int INFO = 0x00;
    public static final int START = 0x01;
    public static final int END = 0x02;
    public static final int DC_START = 0x03;
    public static final int DC_END = 0x04;
    public static final int EXTENSION = 0x05;
    public static final int REPLY = 0x06;
    public static final int DEQUEUE = 0x07;
    public static final int CHECKPOINT = 0x08;

    private static final String[] NAMES = {
        "INFO", "START", "END", "DC_START", "DC_END", "EXTENSION", "REPLY", "DEQUEUE", "CHECKPOINT"
    };

    private EventType() {
    }

    /** The SDK name without the prefix, or the number for a provider-specific type. */
    public static String name(int type) {
        return type >= 0 && type < NAMES.length ? NAMES[type] : Integer.toString(type);
    }
}
