package dev.jetw.etl;

import java.util.List;

/**
 * What a file says twice must agree. .etl buffers carry no checksum, so damage that leaves the record
 * chain intact (a time stamp's bits flipped, a logfile-header field overwritten) shows only as a
 * contradiction: the header's StartTime after its EndTime, a record time-stamped far outside its
 * session, or later than its buffer's own TimeStamp (the flush time, never before a record of the
 * buffer: Windows stamps the flush, jetw the latest record). Each is an
 * {@link EtlProblem.Kind#INCONSISTENT} problem, one per buffer at most; the records are delivered as read.
 */
final class EtlConsistency {

    /**
     * Slack around [StartTime, EndTime], plus a tenth of the session's length: QPC-derived times drift
     * from the system clock that stamps EndTime (the relogged Windows sample has a record 13 ms after
     * it), and the JVM's runtime events carry their own start times (a park begun shortly before an
     * attach). Damage that moves a time by less loses nothing and goes unseen.
     */
    static final double SLACK_SECONDS = 60;

    /** Raw time stamps to seconds after StartTime. */
    private final TimestampConverter time;
    /** Where contradictions go. */
    private final EtlProblemLog problems;
    /** The session's bounds in seconds after StartTime, slack included (NaN: the header's times cannot be trusted). */
    private final double from;
    private final double to;
    /** The session as a message shows it, or null when its times cannot be trusted. */
    private final String session;

    EtlConsistency(EtlLogfileInfo header, TimestampConverter time, EtlProblemLog problems) {
        long start = header.startTime();
        long end = header.endTime();
        this.time = time;
        this.problems = problems;
        String damaged = null;
        if (start <= 0) {
            damaged = String.format("StartTime %d is no time", start);
        } else if (end != 0 && end < start) {
            damaged = String.format("StartTime %d (%s) is after EndTime %d (%s)", start, instant(start), end, instant(end));
        }
        if (damaged != null) {
            problems.inconsistent(EtlFormat.BUFFER_HEADER_SIZE, "inconsistent logfile header: " + damaged
                    + "; the header is damaged and the records' times are unreliable");
            from = Double.NaN;
            to = Double.NaN;
            session = null;
            return;
        }
        double length = end == 0 ? 0 : (end - start) / 1e7;
        double slack = SLACK_SECONDS + length / 10;
        from = -slack;
        to = end == 0 ? Double.POSITIVE_INFINITY : length + slack;
        session = instant(start) + " .. " + (end == 0 ? "(no EndTime)" : instant(end));
    }

    /** Checks the time stamps of the records just read from {@code info}. */
    void checkRecords(EtlBufferInfo info, List<EtlRecord> records) {
        int outside = 0;
        int late = 0;
        EtlRecord first = null;
        for (EtlRecord r : records) {
            double seconds = time.secondsSinceStart(r.rawTimestamp());
            boolean isOutside = session != null && !(seconds >= from && seconds <= to);
            boolean isLate = info.timeStamp() != 0 && r.rawTimestamp() > info.timeStamp();
            if (isOutside || isLate) {
                outside += isOutside ? 1 : 0;
                late += isLate ? 1 : 0;
                first = first == null ? r : first;
            }
        }
        if (first == null) {
            return;
        }
        StringBuilder what = new StringBuilder();
        if (outside > 0) {
            what.append(String.format("%d %s time-stamped outside the session (%s, with %.0f s of slack)", outside,
                    outside == 1 ? "record" : "records", session, -from));
        }
        if (late > 0) {
            what.append(what.length() > 0 ? "; " : "").append(String.format(
                    "%d %s time-stamped after the buffer's own TimeStamp %d", late, late == 1 ? "record" : "records", info.timeStamp()));
        }
        problems.inconsistent(info.fileOffset(), String.format(
                "inconsistent buffer #%d at offset 0x%x (sequence %d): %s, the first at offset 0x%x (raw time stamp %d);"
                        + " the buffer is damaged and what its records say may be wrong",
                info.fileIndex(), info.fileOffset(), info.sequenceNumber(), what, first.fileOffset(), first.rawTimestamp()));
    }

    private static String instant(long fileTime) {
        try {
            return TimestampConverter.fileTimeToInstant(fileTime).toString();
        } catch (RuntimeException e) {
            return "?";
        }
    }
}
