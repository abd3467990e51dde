package dev.jetw.samples;

import java.nio.file.Path;
import java.nio.file.Paths;

/** The sample's command line. Parsing errors are one line naming the option, the value and what is allowed. */
public final class AppOptions {
    static final String USAGE = String.join("\n",
            "usage: java -jar jetw-samples.jar (--orders N | --serve) [options]",
            "  --orders N        send N orders, print a report, exit (0 when every order was answered)",
            "  --serve           run until stopped (Ctrl-C, SIGTERM or a SHUTDOWN line on the socket),",
            "                    with a steady trickle of orders: the mode to attach the agent to",
            "  --clients C       load-generator client threads (default 4; --serve: 2)",
            "  --workers W       order worker threads (default 4)",
            "  --seed S          seed of the order mix (default 42): same seed, same counts",
            "  --journal FILE    order journal (default: a temporary file, deleted at exit)",
            "  --port P          gateway port on 127.0.0.1 (default 0: an ephemeral port)",
            "  --interval-ms M   --serve: pause of each client between orders (default 200)",
            "  --no-fsync        do not force each journal line to disk");

    private static final int MAX_ORDERS = 10_000_000;

    long orders = -1;
    boolean serve;
    int clients = -1;
    int workers = 4;
    long seed = 42;
    Path journal;
    int port;
    long intervalMillis = 200;
    boolean fsync = true;

    public static AppOptions parse(String... args) {
        AppOptions o = new AppOptions();
        for (int i = 0; i < args.length; i++) {
            String name = args[i];
            switch (name) {
                case "--orders": o.orders = number(name, value(args, ++i, name), 1, MAX_ORDERS); break;
                case "--serve": o.serve = true; break;
                case "--clients": o.clients = (int) number(name, value(args, ++i, name), 1, 256); break;
                case "--workers": o.workers = (int) number(name, value(args, ++i, name), 1, 256); break;
                case "--seed": o.seed = number(name, value(args, ++i, name), Long.MIN_VALUE, Long.MAX_VALUE); break;
                case "--journal": o.journal = Paths.get(value(args, ++i, name)); break;
                case "--port": o.port = (int) number(name, value(args, ++i, name), 0, 65535); break;
                case "--interval-ms": o.intervalMillis = number(name, value(args, ++i, name), 0, 60_000); break;
                case "--no-fsync": o.fsync = false; break;
                default: throw new IllegalArgumentException("unknown option '" + name + "'; allowed: --orders, --serve,"
                        + " --clients, --workers, --seed, --journal, --port, --interval-ms, --no-fsync");
            }
        }
        if (o.serve == (o.orders >= 0)) {
            throw new IllegalArgumentException("give exactly one of --orders N or --serve");
        }
        if (o.clients < 0) {
            o.clients = o.serve ? 2 : 4;
        }
        return o;
    }

    private static String value(String[] args, int i, String name) {
        if (i >= args.length) {
            throw new IllegalArgumentException("option " + name + " needs a value");
        }
        return args[i];
    }

    private static long number(String name, String text, long min, long max) {
        long n;
        try {
            n = Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("option " + name + ": '" + text + "' is not a whole number; allowed: "
                    + min + ".." + max);
        }
        if (n < min || n > max) {
            throw new IllegalArgumentException("option " + name + ": " + n + " is out of range; allowed: " + min + ".." + max);
        }
        return n;
    }

    public long orders() {
        return orders;
    }

    public boolean serve() {
        return serve;
    }

    public int clients() {
        return clients;
    }

    public int workers() {
        return workers;
    }

    public long seed() {
        return seed;
    }

    /** The journal file, or null for a temporary one. */
    public Path journal() {
        return journal;
    }

    public int port() {
        return port;
    }

    public long intervalMillis() {
        return intervalMillis;
    }

    public boolean fsync() {
        return fsync;
    }
}
