package dev.jetw.bench.real;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The attach transient (BENCHMARKS.md §16): what {@code jetw attach} costs a busy application, second by second.
 * Per round, one fresh JVM per arm runs {@link PacedShop} without pause for {@code warm} seconds; then each agent jar
 * given attaches to its own JVM ({@code jetw attach PID OPTIONS}) while one JVM is left alone, and each runs
 * {@code after} more seconds. For each, against its own rate over the {@code baseline} seconds before that instant:
 * the work lost over the {@code after} seconds, in baseline-seconds, and the longest stretch below 0.5 × (the JVM left
 * alone shows what noise alone gives). The arms run one after the other, their order rotated from round to round and
 * reversed every other round.
 * Usage, after {@code mvn -o -q package -pl benchmarks,agent/dist -am -DskipTests} (one jar or several, e.g. before
 * and after a change):
 *
 * <pre>java -Dpairs=3 -cp benchmarks/target/benchmarks.jar dev.jetw.bench.real.AttachTransientRun agent/dist/target/jetw-agent.jar [OTHER_AGENT_JAR ...]</pre>
 *
 * An arm {@code JAR::OPTIONS} attaches that jar with OPTIONS added to the common options (e.g. two arms of one jar,
 * {@code jetw-agent.jar::attachHot=now jetw-agent.jar::attachHot=defer}); {@code JAR::=OPTIONS} attaches with OPTIONS instead
 * of the common options (e.g. the one-class floor in the same run, {@code jetw-agent.jar::=include=dev.jetw.bench.real.PacedShop}).
 * An arm may start with JVM flags for its own target JVM only, before the jar and separated by spaces (each flag starts
 * with {@code -}), e.g. {@code '-javaagent:jetw-agent.jar=standby jetw-agent.jar::=include=dev.jetw.bench.real.PacedShop'}:
 * the same attach against a JVM started with an agent (docs/attach-ramp.md, JDK 17).
 *
 * System properties: pairs (3: rounds of all arms), warmup (0: rounds of all arms run first and left out of the summary), warm (20 s), after (30 s), baseline (5 s), options ({@code include=org.h2.**}; the
 * attach options, to which {@code backend=portable,file=...} is added), detach (true: detach at the end and report how
 * long the command took), jvmFlags (extra flags for both arms' JVMs, split at spaces; {@code {run}} becomes the
 * run's name, e.g. {@code -Xlog:safepoint:file=/tmp/sp-{run}.log}), keep (false: keep the attached run's trace and each child's other output), java (the children's java, default this one's).
 */
public final class AttachTransientRun {

    private final List<Path> agents = new ArrayList<>();
    /** Per agent arm: options added to {@link #options} (after {@code ::} in its argument), or "". */
    private final List<String> armOptions = new ArrayList<>();
    /** Per agent arm: the JVM flags given before its jar, for its target JVM only (empty: none). */
    private final List<List<String>> armFlags = new ArrayList<>();
    private final Path classpath;
    private final Path dir;
    private final String java = System.getProperty("java", Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    private final int warm = Integer.getInteger("warm", 20);
    private final int after = Integer.getInteger("after", 30);
    private final int baseline = Integer.getInteger("baseline", 5);
    private final String options = System.getProperty("options", "include=org.h2.**");
    private final boolean detach = Boolean.parseBoolean(System.getProperty("detach", "true"));
    private final String jvmFlags = System.getProperty("jvmFlags", "");
    private final boolean keep = Boolean.getBoolean("keep");

    private AttachTransientRun(String[] agents) throws IOException {
        for (String arm : agents) {
            List<String> flags = new ArrayList<>(Arrays.asList(arm.trim().split(" +")));
            String a = flags.remove(flags.size() - 1); // the jar (and its options) comes last, after any flags
            for (String f : flags) {
                if (!f.startsWith("-")) {
                    throw new IllegalArgumentException("arm '" + arm + "': '" + f + "' is not a JVM flag (flags come before the jar and start with -)");
                }
            }
            this.armFlags.add(flags);
            int sep = a.indexOf("::");
            this.agents.add(Paths.get(sep < 0 ? a : a.substring(0, sep)).toAbsolutePath());
            this.armOptions.add(sep < 0 ? "" : "," + a.substring(sep + 2));
        }
        this.classpath = Paths.get(AttachTransientRun.class.getProtectionDomain().getCodeSource().getLocation().getPath());
        this.dir = Files.createTempDirectory("jetw-attach");
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: AttachTransientRun AGENT_JAR [OTHER_AGENT_JAR ...]");
            System.exit(2);
        }
        AttachTransientRun run = new AttachTransientRun(args);
        int pairs = Integer.getInteger("pairs", 3);
        System.out.println("children: " + run.java + "; warm " + run.warm + " s, baseline " + run.baseline + " s, window "
                + run.after + " s after the attach; options " + run.options + "; " + pairs + " rounds; agents " + run.agents);
        int arms = run.agents.size() + 1; // arm 0: left alone
        List<List<Arm>> results = new ArrayList<>();
        for (int a = 0; a < arms; a++) {
            results.add(new ArrayList<>());
        }
        int warmup = Integer.getInteger("warmup", 0);
        for (int p = -warmup; p < pairs; p++) {
            for (int k = 0; k < arms; k++) {
                // Rotated from round to round, and run backwards every other round (a warm-up round is named w0, w1...).
                int step = Math.floorMod(p, 2) == 0 ? k : arms - 1 - k;
                int a = Math.floorMod(step + p, arms);
                Path agent = a == 0 ? null : run.agents.get(a - 1);
                Arm arm = run.arm((p < 0 ? "w" + (p + warmup) : "r" + p) + (a == 0 ? "-alone" : "-attach" + a), agent,
                        a == 0 ? "" : run.armOptions.get(a - 1), a == 0 ? Collections.emptyList() : run.armFlags.get(a - 1));
                if (p >= 0) {
                    results.get(a).add(arm);
                }
            }
        }
        System.out.println("-- summary, mean [95 % CI] over " + pairs + " rounds");
        double[] alone = lost(results.get(0));
        System.out.println("left alone: lost " + RealWorkloadRun.meanAndInterval(alone, "%.2f") + " baseline-s " + Arrays.toString(round2(alone))
                + "; longest below 0.5 x " + Arrays.toString(round2(below(results.get(0)))) + " s");
        for (int a = 1; a < arms; a++) {
            List<Arm> rs = results.get(a);
            double[] lost = lost(rs);
            double[] diff = new double[pairs];
            double[] attach = new double[pairs];
            double[] detach = new double[pairs];
            for (int p = 0; p < pairs; p++) {
                diff[p] = lost[p] - alone[p];
                attach[p] = rs.get(p).commandMillis;
                detach[p] = rs.get(p).detachMillis;
            }
            System.out.println("attached with " + run.agents.get(a - 1) + run.armOptions.get(a - 1)
                    + (run.armFlags.get(a - 1).isEmpty() ? "" : " to a JVM started with " + String.join(" ", run.armFlags.get(a - 1))) + ":");
            System.out.println("  lost " + RealWorkloadRun.meanAndInterval(lost, "%.2f") + " baseline-s " + Arrays.toString(round2(lost))
                    + "; minus the JVM left alone in the same round " + RealWorkloadRun.meanAndInterval(diff, "%.2f"));
            System.out.println("  longest below 0.5 x " + Arrays.toString(round2(below(rs))) + " s");
            System.out.println("  attach command " + RealWorkloadRun.meanAndInterval(attach, "%.0f") + " ms " + Arrays.toString(attach)
                    + (run.detach ? "; detach command " + RealWorkloadRun.meanAndInterval(detach, "%.0f") + " ms " + Arrays.toString(detach) : ""));
        }
    }

    private static double[] lost(List<Arm> arms) {
        double[] x = new double[arms.size()];
        for (int i = 0; i < x.length; i++) {
            x[i] = arms.get(i).result.lostBaselineSeconds;
        }
        return x;
    }

    private static double[] below(List<Arm> arms) {
        double[] x = new double[arms.size()];
        for (int i = 0; i < x.length; i++) {
            x[i] = arms.get(i).result.longestBelowHalfMillis / 1000.0;
        }
        return x;
    }

    private static double[] round2(double[] x) {
        double[] r = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            r[i] = Math.round(x[i] * 100) / 100.0;
        }
        return r;
    }

    /**
     * One JVM (started with {@link #jvmFlags} and then {@code targetFlags}): warm, the instant (an attach of {@code agent},
     * or nothing when null), the window, then detach (if attached) and quit.
     */
    private Arm arm(String name, Path agent, String extraOptions, List<String> targetFlags) throws Exception {
        boolean attachNow = agent != null;
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        for (String f : jvmFlags.trim().split(" +")) {
            if (!f.isEmpty()) {
                cmd.add(f.replace("{run}", name));
            }
        }
        cmd.addAll(targetFlags);
        cmd.add("-cp");
        cmd.add(classpath.toString());
        cmd.add(PacedShop.class.getName());
        Process app = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        PrintWriter in = new PrintWriter(app.getOutputStream(), true, StandardCharsets.UTF_8);
        Arm arm = new Arm();
        if (keep) {
            arm.other = new PrintWriter(Files.newBufferedWriter(dir.resolve(name + ".out")), true);
            System.out.println("  " + name + " output kept: " + dir.resolve(name + ".out"));
        }
        Thread reader = new Thread(() -> arm.read(app), "read-" + name);
        reader.setDaemon(true);
        reader.start();
        try {
            in.println("pid");
            String pid = arm.reply("pid ");
            Thread.sleep(warm * 1000L);
            in.println("mark");
            long event = Long.parseLong(arm.reply("mark "));
            Path etl = dir.resolve(name + ".etl");
            if (attachNow) {
                long t0 = System.nanoTime();
                String given = extraOptions.startsWith(",=") ? extraOptions.substring(2) : options + extraOptions;
                String reply = jetw(agent, "attach", pid, given + ",backend=portable,file=" + etl);
                arm.commandMillis = (System.nanoTime() - t0) / 1_000_000;
                if (!reply.startsWith("jetw agent attached")) {
                    throw new IllegalStateException("attach failed: " + reply);
                }
            }
            long windowEnd = System.nanoTime() + after * 1_000_000_000L;
            while (System.nanoTime() < windowEnd) {
                Thread.sleep(50);
            }
            Thread.sleep(2 * PacedShop.TICK_MILLIS); // the window's last ticks
            in.println("mark");
            arm.reply("mark ");
            if (attachNow) { // what the ramp did in the window (an older agent has no such line)
                jetw(agent, "status", pid).lines().filter(l -> l.startsWith("attach ramp:") || l.startsWith("methods "))
                        .forEach(l -> System.out.println("  " + name + " " + l));
            }
            if (attachNow && detach) {
                long t0 = System.nanoTime();
                String reply = jetw(agent, "detach", pid);
                arm.detachMillis = (System.nanoTime() - t0) / 1_000_000;
                System.out.println("  " + name + " detach: " + reply.replace('\n', ' '));
            }
            if (!keep) {
                Files.deleteIfExists(etl);
            } else {
                System.out.println("  " + name + " trace kept: " + etl);
            }
            double[] perSecond;
            synchronized (arm.timeline) {
                arm.result = arm.timeline.after(event, baseline * 1000L, after * 1000L);
                perSecond = arm.timeline.perSecond(event - 3000, after + 3, arm.result.baselinePerSecond);
            }
            StringBuilder sb = new StringBuilder();
            for (double r : perSecond) {
                sb.append(String.format(Locale.ROOT, " %.2f", r));
            }
            System.out.printf(Locale.ROOT, "%-10s at %.1f s: baseline %.1f rounds/s; lost %.2f baseline-s; longest below 0.5 x %.2f s%s%n"
                    + "           x baseline per second from -3 s:%s%n", name, event / 1000.0, arm.result.baselinePerSecond,
                    arm.result.lostBaselineSeconds, arm.result.longestBelowHalfMillis / 1000.0,
                    attachNow ? String.format(Locale.ROOT, "; attach command %d ms", arm.commandMillis) : "", sb);
            return arm;
        } finally {
            in.println("quit");
            if (!app.waitFor(30, TimeUnit.SECONDS)) {
                app.destroyForcibly();
            }
        }
    }

    private String jetw(Path agent, String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        cmd.add("-jar");
        cmd.add(agent.toString());
        cmd.addAll(Arrays.asList(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String reply = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        p.waitFor();
        return reply;
    }

    /** One child's ticks and replies. */
    private static final class Arm {
        final ThroughputTimeline timeline = new ThroughputTimeline();
        final BlockingQueue<String> replies = new LinkedBlockingQueue<>();
        /** Where the child's other output goes (keep=true), or null. */
        PrintWriter other;
        long commandMillis;
        long detachMillis;
        ThroughputTimeline.Transient result;

        void read(Process app) {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(app.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    if (line.startsWith("tick ")) {
                        String[] f = line.split(" ");
                        synchronized (timeline) {
                            timeline.add(Long.parseLong(f[1]), Long.parseLong(f[2]));
                        }
                    } else if (line.startsWith("error") ) {
                        System.out.println("  child: " + line);
                        replies.add(line);
                    } else if (line.startsWith("pid ") || line.startsWith("mark ") || line.startsWith("unknown ")) {
                        replies.add(line);
                    } else if (other != null) {
                        other.println(line); // the JVM's own output (e.g. -XX:+PrintCompilation), not a reply
                    }

                }
            } catch (IOException e) {
                replies.add("error " + e);
            }
        }

        String reply(String prefix) throws InterruptedException {
            String line = replies.poll(60, TimeUnit.SECONDS);
            if (line == null || !line.startsWith(prefix)) {
                throw new IllegalStateException("expected '" + prefix + "...', got " + line);
            }
            return line.substring(prefix.length());
        }
    }
}
