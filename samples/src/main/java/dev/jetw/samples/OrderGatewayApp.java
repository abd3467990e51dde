package dev.jetw.samples;

import dev.jetw.samples.load.LoadGenerator;
import dev.jetw.samples.load.LoadResult;
import dev.jetw.samples.load.OrderGenerator;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * jetw's sample application: an order gateway on 127.0.0.1 with a worker pool, a journal on disk and a
 * load generator, for tracing with the jetw agent. {@code --orders N} runs N orders and reports;
 * {@code --serve} runs until stopped, for attaching to.
 */
public final class OrderGatewayApp {
    static final int EXIT_OK = 0;
    static final int EXIT_INCOMPLETE = 1;
    static final int EXIT_USAGE = 2;
    /** How long the shutdown hook lets --serve finish its report after Ctrl-C/SIGTERM. */
    private static final long HOOK_WAIT_SECONDS = 30;

    private OrderGatewayApp() {
    }

    public static void main(String[] args) throws Exception {
        int code = run(args, System.out, System.err);
        if (code != EXIT_OK) {
            System.exit(code);
        }
    }

    /** The whole program; returns the exit code. */
    public static int run(String[] args, PrintStream out, PrintStream err) throws IOException, InterruptedException {
        if (args.length == 1 && ("--help".equals(args[0]) || "-h".equals(args[0]))) {
            out.println(AppOptions.USAGE);
            return EXIT_OK;
        }
        AppOptions options;
        try {
            options = AppOptions.parse(args);
        } catch (IllegalArgumentException bad) {
            err.println("jetw-samples: " + bad.getMessage() + " (--help for usage)");
            return EXIT_USAGE;
        }
        return options.serve() ? serve(options, out) : runOrders(options, out, err);
    }

    static int runOrders(AppOptions options, PrintStream out, PrintStream err) throws IOException, InterruptedException {
        OrderService service = OrderService.start(options);
        LoadResult result;
        try {
            out.println("order gateway listening on " + describe(service) + ", pid " + pid() + "; sending "
                    + options.orders() + " orders from " + options.clients() + " clients");
            result = new LoadGenerator(service.gateway().address(), new OrderGenerator(options.seed()),
                    options.clients(), options.orders(), 0).run();
        } finally {
            service.close();
        }
        out.println(RunReport.format(result, options, journalName(service, options), service.journal().lines()));
        if (result.answered() != options.orders()) {
            err.println("jetw-samples: only " + result.answered() + " of " + options.orders() + " orders were answered");
            return EXIT_INCOMPLETE;
        }
        return EXIT_OK;
    }

    static int serve(AppOptions options, PrintStream out) throws IOException, InterruptedException {
        final ServeRun run = ServeRun.start(options);
        // The hook must not return before the report is out: the JVM halts when its hooks are done.
        final CountDownLatch reported = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            run.requestStop();
            try {
                reported.await(HOOK_WAIT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "jetw-samples-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            out.println("order gateway listening on " + describe(run.service()) + ", pid " + pid() + "; serving a"
                    + " trickle of orders until stopped (Ctrl-C, SIGTERM, or a SHUTDOWN line on the socket)");
            out.flush();
            LoadResult result = run.awaitStopAndClose();
            out.println(RunReport.format(result, options, journalName(run.service(), options),
                    run.service().journal().lines()));
            out.flush();
        } finally {
            reported.countDown();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException alreadyShuttingDown) {
            // We are inside a Ctrl-C/SIGTERM shutdown; the hook is what got us here.
        }
        return EXIT_OK;
    }

    private static String describe(OrderService service) {
        return service.gateway().address().getAddress().getHostAddress() + ":" + service.gateway().address().getPort();
    }

    private static String journalName(OrderService service, AppOptions options) {
        return options.journal() == null ? "(temporary, now deleted) " + service.journal().file()
                : service.journal().file().toString();
    }

    /** The process id, from "pid@host" (Java 8 has no ProcessHandle). */
    static String pid() {
        String name = ManagementFactory.getRuntimeMXBean().getName();
        int at = name.indexOf('@');
        return at > 0 ? name.substring(0, at) : name;
    }
}
