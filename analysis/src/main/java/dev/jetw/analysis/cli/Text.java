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
