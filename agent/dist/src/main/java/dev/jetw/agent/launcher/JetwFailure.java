package dev.jetw.agent.launcher;

/**
 * A failure the user must see as exactly one line, {@code jetw: <what>: <why>}. Entry points and the
 * command-line tool catch it and print {@link #line()}; nothing ever propagates into the target JVM.
 */
public final class JetwFailure extends Exception {

    private static final long serialVersionUID = 1L;

    private final String what;
    private final String why;

    public JetwFailure(String what, String why) {
        super(what + ": " + why);
        this.what = what;
        this.why = why;
    }

    public JetwFailure(String what, String why, Throwable cause) {
        this(what, why);
        initCause(cause);
    }

    /** The reason alone, without the "what" prefix. */
    public String why() {
        return why;
    }

    /** The one line printed to the user (and written to the tool's reply file). */
    public String line() {
        return line(what, why);
    }

    public static String line(String what, String why) {
        return "jetw: " + what + ": " + why;
    }

    /** A throwable as a short "Class: message" text, for the "why" part of a line. */
    public static String describe(Throwable t) {
        String message = t.getMessage();
        String name = t.getClass().getName();
        return message == null || message.isEmpty() ? name : name + ": " + message.replace('\n', ' ').replace('\r', ' ');
    }
}
