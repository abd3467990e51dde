package dev.jetw.bench.real;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@link ShopApp} run without pause, its throughput printed as it goes: the child of {@link AttachTransientRun}.
 * The main thread runs rounds until told to quit; a ticker prints {@code tick UPTIME_MS ROUNDS} every
 * {@value #TICK_MILLIS} ms (rounds completed so far; uptime since the JVM started, the clock of {@code -Xlog}
 * and {@code -XX:+PrintCompilation}, so a launcher can line the JVM's own logs up with the throughput).
 * Commands on stdin, one reply line each: {@code pid}, {@code mark} ({@code mark UPTIME_MS}), {@code quit}.
 */
public final class PacedShop {

    static final long TICK_MILLIS = 250;

    private PacedShop() {
    }

    public static void main(String[] args) throws Exception {
        ShopApp app = new ShopApp();
        long checksum = app.round();
        AtomicLong rounds = new AtomicLong(1);
        Thread worker = new Thread(() -> {
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    long c = app.round();
                    if (c != checksum) {
                        say("error checksum " + Long.toHexString(c) + " != " + Long.toHexString(checksum));
                        return;
                    }
                    rounds.incrementAndGet();
                }
            } catch (Exception e) {
                say("error " + e);
            }
        }, "shop");
        worker.setDaemon(true);
        worker.start();
        Thread ticker = new Thread(() -> {
            long next = uptime();
            while (true) {
                next = Math.max(next + TICK_MILLIS, uptime()); // a tick late by more than a tick is not caught up
                try {
                    Thread.sleep(Math.max(0, next - uptime()));
                } catch (InterruptedException e) {
                    return;
                }
                say("tick " + uptime() + " " + rounds.get());
            }
        }, "ticker");
        ticker.setDaemon(true);
        ticker.start();
        say("checksum " + Long.toHexString(checksum));
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String cmd = in.readLine(); cmd != null && !cmd.equals("quit"); cmd = in.readLine()) {
            if (cmd.equals("pid")) {
                say("pid " + ProcessHandle.current().pid());
            } else if (cmd.equals("mark")) {
                say("mark " + uptime());
            } else {
                say("unknown command " + cmd);
            }
        }
    }

    private static long uptime() {
        return ManagementFactory.getRuntimeMXBean().getUptime();
    }

    /** One whole line at a time: the ticker and the command loop share stdout. */
    private static synchronized void say(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
