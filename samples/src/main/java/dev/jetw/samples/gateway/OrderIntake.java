package dev.jetw.samples.gateway;

import dev.jetw.samples.orders.Order;
import dev.jetw.samples.orders.OrderProcessor;

import java.util.concurrent.RejectedExecutionException;

/**
 * The service's entry point for one request line: parse it and hand the order to the worker pool (or
 * answer a SHUTDOWN). Kept apart from {@link OrderGateway}'s socket plumbing so that tracing the
 * service can leave out the long-lived accept and read loops and still see every request arrive.
 */
final class OrderIntake {
    private final OrderProcessor processor;
    private final OrderWorkerPool pool;
    private final GatewayStats stats;
    private final Runnable shutdownRequest;

    OrderIntake(OrderProcessor processor, OrderWorkerPool pool, GatewayStats stats, Runnable shutdownRequest) {
        this.processor = processor;
        this.pool = pool;
        this.stats = stats;
        this.shutdownRequest = shutdownRequest;
    }

    /** Handles one line from {@code client}; returns false when the connection should end. */
    boolean handle(ClientConnection client, String line) {
        if (Protocol.SHUTDOWN.equals(line)) {
            client.reply(Protocol.BYE);
            shutdownRequest.run();
            return false;
        }
        Order order;
        try {
            order = Protocol.parseOrder(line);
        } catch (IllegalArgumentException bad) {
            stats.badRequests.incrementAndGet();
            client.reply(Protocol.ERROR + " " + bad.getMessage());
            return true;
        }
        try {
            pool.submitOrder(new OrderTask(order, client, processor, stats));
        } catch (RejectedExecutionException refused) {
            stats.failed.incrementAndGet();
            client.reply(Protocol.FAILED + " " + order.id() + " gateway is shutting down or overloaded");
        }
        return true;
    }
}
