package dev.jetw.samples;

import dev.jetw.samples.load.LoadGenerator;
import dev.jetw.samples.load.LoadResult;
import dev.jetw.samples.load.OrderGenerator;

import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * {@code --serve}: the service with a steady trickle of orders, running until a stop is requested
 * (a SHUTDOWN line on the socket, {@link #requestStop}, or the JVM's shutdown hook on Ctrl-C/SIGTERM).
 */
public final class ServeRun {
    private final OrderService service;
    private final LoadGenerator trickle;

    private ServeRun(OrderService service, LoadGenerator trickle) {
        this.service = service;
        this.trickle = trickle;
    }

    public static ServeRun start(AppOptions options) throws IOException {
        OrderService service = OrderService.start(options);
        LoadGenerator trickle = new LoadGenerator(service.gateway().address(), new OrderGenerator(options.seed()),
                options.clients(), Long.MAX_VALUE, options.intervalMillis());
        trickle.start();
        return new ServeRun(service, trickle);
    }

    public InetSocketAddress address() {
        return service.gateway().address();
    }

    public OrderService service() {
        return service;
    }

    public void requestStop() {
        service.gateway().requestShutdown();
    }

    /** Blocks until a stop is requested, then stops the trickle and the service; returns the tally. */
    public LoadResult awaitStopAndClose() throws InterruptedException, IOException {
        service.gateway().awaitShutdownRequest();
        trickle.stop();
        LoadResult result = trickle.awaitResult();
        service.close();
        return result;
    }
}
