package dev.jetw.analysis.cli;

import dev.jetw.etl.EtlRecord;
import dev.jetw.etl.JetwSchema;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code hot-methods [-o OUT] FILE...}: the decisions the agent's adaptive exclusion recorded in the traces (MethodExclusion
 * events {@code hot-short}, {@code hot-fast}, {@code hot-threshold=T}, including those it took from an earlier
 * list), one line {@code REASON CLASS.METHOD(DESCRIPTOR)} per method, sorted, for the agent's option
 * {@code hotMethods=FILE}: the next run starts where these runs ended, without instrumenting, compiling and
 * recompiling what they excluded (docs/agent-options.md). Over several files, an exclusion wins over a threshold.
 */
final class HotMethodsCommand {

    private HotMethodsCommand() {
    }

    /**
     * Prints the list, or with {@code output} writes it there in UTF-8 (replacing the file) and prints its path; when a
     * file cannot be read to its end (not an .etl, missing, a read error), neither: a list without that file's decisions
     * would look complete to hotMethods=, and -o would replace a good list with it.
     */
    static int run(List<Path> files, Path output, PrintStream out, PrintStream err) {
        Map<String, String> byMethod = new TreeMap<>();
        int[] unnamed = {0};
        int[] readThrough = {0};
        int status = EtlTool.OK;
        for (Path f : files) {
            status = EtlTool.worse(status, EtlFileRun.run(f, err, reader -> {
                JetwNames names = new JetwNames();
                List<JetwEvent> decisions = new ArrayList<>();
                for (EtlRecord r = reader.next(); r != null; r = reader.next()) {
                    JetwEvent e = JetwEvent.decode(r);
                    names.accept(r, e);
                    if (e != null && e.kind == JetwEvent.Kind.EXCLUSION && e.methodId != 0) {
                        decisions.add(e);
                    }
                }
                // Names after the whole file: a ring's rundown may come after the decisions it names.
                for (JetwEvent e : decisions) {
                    String reason = reasonOf(e.text);
                    if (reason == null) {
                        continue;
                    }
                    if (!names.knowsMethod(e.methodId)) {
                        unnamed[0]++;
                        continue;
                    }
                    String method = names.method(e.methodId);
                    String before = byMethod.get(method);
                    if (before == null || !excludes(before)) {
                        byMethod.put(method, reason);
                    }
                }
                readThrough[0]++;
            }));
        }
        if (readThrough[0] < files.size()) {
            err.println("jetw etl: hot-methods: no list " + (output == null ? "printed" : "written to " + output)
                    + ": " + (files.size() - readThrough[0]) + " of " + files.size() + " FILEs could not be read");
            return EtlTool.worse(status, EtlTool.BAD_FILE);
        }
        int[] counts = new int[3];
        for (String reason : byMethod.values()) {
            counts[reason.equals(JetwSchema.EXCLUSION_HOT_SHORT) ? 0 : reason.equals(JetwSchema.EXCLUSION_HOT_FAST) ? 1 : 2]++;
        }
        StringBuilder s = new StringBuilder();
        s.append("# jetw hot methods of ").append(files.size() == 1 ? files.get(0).toString() : files.size() + " traces")
                .append(", for the agent option hotMethods=THIS_FILE (docs/agent-options.md)\n");
        s.append("# ").append(counts[0]).append(' ').append(JetwSchema.EXCLUSION_HOT_SHORT).append(", ")
                .append(counts[1]).append(' ').append(JetwSchema.EXCLUSION_HOT_FAST).append(", ")
                .append(counts[2]).append(" given a threshold (").append(JetwSchema.EXCLUSION_HOT_THRESHOLD).append("T)");
        if (unnamed[0] > 0) {
            s.append("; ").append(unnamed[0]).append(" decisions left out: their methods are not named in the trace");
        }
        s.append('\n');
        for (Map.Entry<String, String> e : byMethod.entrySet()) {
            s.append(e.getValue()).append(' ').append(e.getKey()).append('\n');
        }
        if (output == null) {
            out.print(s);
            return status;
        }
        if (status != EtlTool.OK) {
            // A truncated or damaged trace still shows its intact decisions on stdout, but -o replaces a file that
            // hotMethods= reads at the next start: a partial list there would silently drop the decisions lost.
            err.println("jetw etl: hot-methods: no list written to " + output + ": a FILE was read with problems (above);"
                    + " without -o the decisions it holds are printed");
            return status;
        }
        try {
            java.nio.file.Files.write(output, s.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        } catch (java.io.IOException e) {
            err.println("jetw etl: cannot write " + output + ": " + e.getMessage());
            return EtlTool.worse(status, EtlTool.BAD_FILE);
        }
        out.println(output);
        return status;
    }

    /** The reason as the agent's option reads it (without the mark of one taken from a list), or null for other records. */
    static String reasonOf(String text) {
        String t = text.endsWith(JetwSchema.EXCLUSION_KNOWN_SUFFIX)
                ? text.substring(0, text.length() - JetwSchema.EXCLUSION_KNOWN_SUFFIX.length()) : text;
        if (t.equals(JetwSchema.EXCLUSION_HOT_SHORT) || t.equals(JetwSchema.EXCLUSION_HOT_FAST)
                || t.startsWith(JetwSchema.EXCLUSION_HOT_THRESHOLD) && t.indexOf(' ') < 0) {
            return t;
        }
        return null;
    }

    private static boolean excludes(String reason) {
        return !reason.startsWith(JetwSchema.EXCLUSION_HOT_THRESHOLD);
    }
}
