package dev.jetw.analysis.cli;

import dev.jetw.etl.EtlFormat;
import dev.jetw.etl.JetwSchema;
import dev.jetw.etl.TimestampConverter;

import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.UUID;

/** Formatting shared by the commands: times, durations, hex, known provider names. */
final class Text {

    private static final DateTimeFormatter ISO_100NS =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSS'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);
    private static final UUID CLR_RUNDOWN = UUID.fromString("a669021c-c450-4609-a035-5af59af4df18");
    private static final UUID CLR_RUNTIME = UUID.fromString("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4");

    private Text() {
    }

    /** FILETIME as UTC ISO-8601 with 100 ns digits, e.g. 2020-07-14T12:04:31.1387363Z. */
    static String iso(long fileTime) {
        return ISO_100NS.format(TimestampConverter.fileTimeToInstant(fileTime));
    }

    /** 100 ns units as milliseconds with microsecond precision: "12.345". */
    static String millis(long hundredNanos) {
        return String.format(Locale.ROOT, "%.3f", hundredNanos / 10_000.0);
    }

    /**
     * A name the trace gives (a thread's or process's name, a file name, a method, a decoded string) as text output
     * may print it: the C0 controls, DEL and the C1 controls escaped as backslash-n, -r, -t or backslash-u and four
     * hex digits (ESC: backslash-u001b), so that a name cannot move the cursor, clear the terminal or forge a line
     * (another local user's thread may be named ESC "[2J" newline "FAKE"). Anything else unchanged (a backslash too:
     * Windows paths stay readable); null stays null.
     */
    static String safe(String s) {
        if (s == null) {
            return null;
        }
        int i = 0;
        while (i < s.length() && !control(s.charAt(i))) {
            i++;
        }
        if (i == s.length()) {
            return s;
        }
        StringBuilder b = new StringBuilder(s.length() + 8).append(s, 0, i);
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!control(c)) {
                b.append(c);
            } else if (c == '\n') {
                b.append("\\n");
            } else if (c == '\r') {
                b.append("\\r");
            } else if (c == '\t') {
                b.append("\\t");
            } else {
                b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            }
        }
        return b.toString();
    }

    /** C0 (below 0x20), DEL (0x7f) and C1 (0x80..0x9f): what a terminal may act on. */
    static boolean control(char c) {
        return c < 0x20 || (c >= 0x7F && c <= 0x9F);
    }

    static String hex(byte[] b) {
        StringBuilder s = new StringBuilder(b.length * 2);
        for (byte x : b) {
            s.append(Character.forDigit((x >> 4) & 0xF, 16)).append(Character.forDigit(x & 0xF, 16));
        }
        return s.toString();
    }

    /** A name for well-known GUIDs (logfile header class, jetw's provider and classes, CLR), else null. */
    static String knownProvider(UUID guid) {
        if (guid == null) {
            return null;
        }
        if (guid.equals(EtlFormat.EVENT_TRACE_GUID)) {
            return "EventTraceGuid";
        }
        if (guid.equals(JetwSchema.CONTROL_GUID)) {
            return "jetw";
        }
        if (guid.equals(dev.jetw.etl.SessionNotice.CLASS)) {
            return "jetw session notice";
        }
        String jetw = JetwEvent.className(guid);
        if (jetw != null) {
            return "jetw " + jetw;
        }
        if (guid.equals(CLR_RUNDOWN)) {
            return "Microsoft-Windows-DotNETRuntimeRundown";
        }
        if (guid.equals(CLR_RUNTIME)) {
            return "Microsoft-Windows-DotNETRuntime";
        }
        return null;
    }
}
