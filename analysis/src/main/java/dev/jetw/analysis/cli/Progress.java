package dev.jetw.analysis.cli;

import dev.jetw.etl.EtlReader;

import java.io.PrintStream;
import java.util.function.LongSupplier;

/**
 * One progress line on stderr for work longer than {@link #QUIET_NANOS}: "jetw etl: tree FILE: 42 %
 * (pass 2 of 2), 3,141,592 records", rewritten in place with a carriage return at most every half
 * second and ended with a newline when the work is done. Nothing at all when stderr is not a terminal
 * ({@code System.console() == null}: redirected, a pipe, a test) or with --quiet, so logs and
 * redirected output never hold it.
 */
final class Progress {

    /** Work shorter than this shows no progress. */
    static final long QUIET_NANOS = 2_000_000_000L;
    private static final long EVERY_NANOS = 500_000_000L;
    /** The clock is read once per this many records (a record costs ~100 ns; the clock ~20 ns). */
    private static final int CHECK_EVERY = 4096;

    private final PrintStream err;
    private final boolean enabled;
    private final LongSupplier clock;
    private final String what;
    private final long started;
    private long lastPrinted;
    private long records;
    private boolean printed;

    private Progress(PrintStream err, boolean enabled, LongSupplier clock, String what) {
        this.err = err;
        this.enabled = enabled;
        this.clock = clock;
        this.what = what;
        this.started = clock.getAsLong();
    }

    /** Progress for a command: on when stderr is a terminal and --quiet is not given. */
    static Progress forCommand(PrintStream err, CommandOptions o, String what) {
        return create(err, o.quiet, System.console() != null, System::nanoTime, what);
    }

    /** Progress that shows only on a terminal and without --quiet. */
    static Progress create(PrintStream err, boolean quiet, boolean terminal, LongSupplier clock, String what) {
        return new Progress(err, !quiet && terminal, clock, what);
    }

    boolean enabled() {
        return enabled;
    }

    /** Counts one record of {@code reader}, pass {@code pass} of {@code passes}. */
    void record(EtlReader reader, int pass, int passes) {
        if (due()) {
            print(reader, "pass " + pass + " of " + passes);
        }
    }

    /** Counts one record of {@code reader} in a stage of the work named by {@code stage}. */
    void record(EtlReader reader, String stage) {
        if (due()) {
            print(reader, stage);
        }
    }

    /** Counts a record; true when the line is to be (re)printed now. */
    private boolean due() {
        records++;
        if (!enabled || records % CHECK_EVERY != 0) {
            return false;
        }
        long now = clock.getAsLong();
        if (now - started < QUIET_NANOS || (printed && now - lastPrinted < EVERY_NANOS)) {
            return false;
        }
        lastPrinted = now;
        return true;
    }

    private void print(EtlReader reader, String stage) {
        int total = reader.buffers().size();
        int percent = total == 0 ? 100 : (int) (100L * reader.buffersRead() / total);
        err.print(String.format(java.util.Locale.ROOT, "\rjetw etl: %s: %3d %% (%s), %,d records", what,
                percent, stage, records));
        err.flush();
        printed = true;
    }

    /** Ends the line if one was printed. */
    void done() {
        if (printed) {
            err.println();
            printed = false;
        }
    }
}
