package dev.jetw.samples;

import dev.jetw.samples.load.LoadResult;

import java.util.Locale;

/** The one-paragraph report printed at the end of a run. */
final class RunReport {
    private RunReport() {
    }

    static String format(LoadResult result, AppOptions options, String journal, long journalLines) {
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "Processed %d orders in %.2f s (%.1f orders/s) with %d clients and %d workers: "
                        + "%d ok, %d rejected (handled: unknown SKU or bad quantity), %d failed (payment declined, escaped the task)",
                result.answered(), result.elapsedNanos() / 1e9, result.ordersPerSecond(), options.clients(),
                options.workers(), result.ok(), result.rejected(), result.failed()));
        if (result.errors() > 0) {
            s.append(String.format(Locale.ROOT, "; %d requests got no answer (first: %s)", result.errors(), result.firstError()));
        }
        s.append(String.format(Locale.ROOT, "; the journal %s holds %d lines.", journal, journalLines));
        return s.toString();
    }
}
