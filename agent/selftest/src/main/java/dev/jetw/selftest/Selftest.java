package dev.jetw.selftest;

import dev.jetw.etw.ConfigException;
import dev.jetw.etw.EtwBackend;
import dev.jetw.etw.EtwBackends;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.text.SimpleDateFormat;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import java.util.TimeZone;

/**
 * {@code jetw selftest}: runs the {@link ProofScenario} with what this account may do, prints one
 * verdict line per step, and writes a report to attach to a bug report. Exit status 0 when no step
 * failed, 1 when one did, 2 for a usage error.
 */
public final class Selftest {

    public static final String REPORT_FILE = "selftest-report.txt";
    static final String USAGE = "usage: jetw selftest [--dir FOLDER] [--backend auto|windows|portable]";

    private Selftest() {
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        Path dir = null;
        String backendName = "auto";
        for (int i = 0; i < args.length; i++) {
            if ((args[i].equals("--dir") || args[i].equals("--backend")) && i + 1 < args.length) {
                if (args[i].equals("--dir")) {
                    dir = Paths.get(args[++i]);
                } else {
                    backendName = args[++i];
                }
            } else {
                err.println("jetw: selftest: unknown or incomplete argument '" + args[i] + "'");
                err.println(USAGE);
                return 2;
            }
        }
        EtwBackend backend;
        try {
            backend = EtwBackends.create(backendName);
        } catch (ConfigException e) {
            err.println("jetw: selftest: " + e.getMessage());
            return 2;
        }
        try {
            dir = dir != null ? Files.createDirectories(dir) : Files.createTempDirectory("jetw-selftest-" + stamp() + "-");
        } catch (IOException e) {
            err.println("jetw: selftest: cannot create the folder for its files: " + e);
            return 1;
        }
        return run(backend, dir.toAbsolutePath(), ProofScenario.currentElevation(), out, err);
    }

    static int run(EtwBackend backend, Path dir, Boolean elevated, PrintStream out, PrintStream err) {
        String environment = environment(backend, elevated);
        out.println("jetw selftest: " + environment);
        out.println("jetw selftest: files in " + dir);
        ProofScenario scenario;
        try {
            scenario = new ProofScenario(backend, dir, elevated);
        } catch (IllegalArgumentException e) {
            err.println("jetw: selftest: " + e.getMessage() + "; use --dir FOLDER");
            return 2;
        }
        List<StepResult> results = new ArrayList<>();
        for (StepResult r : scenario.runAll()) {
            out.println(r.line());
            out.flush();
            results.add(r);
        }
        int passed = count(results, StepResult.Verdict.PASS);
        int failed = count(results, StepResult.Verdict.FAIL);
        int skipped = count(results, StepResult.Verdict.SKIP);
        String verdict = (failed == 0 ? "PASSED" : "FAILED") + ": " + passed + " passed, " + failed + " failed, " + skipped + " skipped";
        Path report = dir.resolve(REPORT_FILE);
        out.println("jetw selftest: " + verdict);
        out.println("trace:  " + scenario.traceFile());
        try {
            writeReport(report, environment, verdict, results, dir);
            out.println("report: " + report + "   (attach it and the trace to a bug report)");
        } catch (IOException e) {
            err.println("jetw: selftest: cannot write the report " + report + ": " + e);
            return 1;
        }
        return failed == 0 ? 0 : 1;
    }

    private static int count(List<StepResult> results, StepResult.Verdict verdict) {
        int n = 0;
        for (StepResult r : results) {
            n += r.verdict() == verdict ? 1 : 0;
        }
        return n;
    }

    static String environment(EtwBackend backend, Boolean elevated) {
        return "backend " + backend.name() + " on " + System.getProperty("os.name") + " " + System.getProperty("os.version")
                + " (" + System.getProperty("os.arch") + "), Java " + System.getProperty("java.version") + " ("
                + System.getProperty("java.vendor") + ", " + System.getProperty("sun.arch.data.model", "?") + "-bit), elevated: "
                + (elevated == null ? "unknown" : elevated ? "yes" : "no");
    }

    private static void writeReport(Path report, String environment, String verdict, List<StepResult> results, Path dir)
            throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add("jetw selftest report, " + stamp() + " UTC");
        lines.add("environment: " + environment);
        lines.add("java.vm: " + System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version"));
        lines.add("verdict: " + verdict);
        lines.add("");
        for (StepResult r : results) {
            lines.add(r.line());
            for (String d : r.details()) {
                lines.add("    " + d);
            }
        }
        lines.add("");
        lines.add("files in " + dir + ":");
        File[] files = dir.toFile().listFiles();
        if (files != null) {
            for (File f : files) {
                if (!f.getName().equals(REPORT_FILE)) {
                    lines.add("    " + f.getName() + " (" + f.length() + " bytes)");
                }
            }
        }
        Files.write(report, lines, StandardCharsets.UTF_8);
    }

    private static String stamp() {
        SimpleDateFormat f = new SimpleDateFormat("yyyyMMdd-HHmmss", Locale.ROOT);
        f.setTimeZone(TimeZone.getTimeZone("UTC"));
        return f.format(new Date());
    }
}
