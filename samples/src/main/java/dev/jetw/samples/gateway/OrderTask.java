package dev.jetw.samples.gateway;

import dev.jetw.api.Jetw;
import dev.jetw.samples.orders.Order;
import dev.jetw.samples.orders.OrderProcessor;
import dev.jetw.samples.orders.OrderRejectedException;
import dev.jetw.samples.orders.Receipt;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * One order's unit of work on the worker pool: process it and answer the client. Rejections are
 * handled here; a declined payment is not, it escapes run() and {@link OrderWorkerPool} answers it.
 */
final class OrderTask implements Runnable {
    private final Order order;
    private final ClientConnection client;
    private final OrderProcessor processor;
    private final GatewayStats stats;

    OrderTask(Order order, ClientConnection client, OrderProcessor processor, GatewayStats stats) {
        this.order = order;
        this.client = client;
        this.processor = processor;
        this.stats = stats;
    }

    @Override
    public void run() {
        try {
            Receipt receipt = processor.process(order);
            stats.ok.incrementAndGet();
            client.reply(Protocol.OK + " " + receipt.orderId() + " " + receipt.totalCents() + " "
                    + receipt.journalSequence());
        } catch (OrderRejectedException rejected) {
            stats.rejected.incrementAndGet();
            Jetw.checkpoint("rejected", Jetw.WARNING);
            client.reply(Protocol.REJECTED + " " + order.id() + " " + rejected.getMessage());
        } catch (IOException journalFailure) {
            // The journal is the system of record: failing to write it is not the client's fault.
            throw new UncheckedIOException("journal write failed for order " + order.id(), journalFailure);
        }
    }

    /** Called by the pool when run() threw: answers the client so it is never left waiting. */
    void failed(Throwable cause) {
        stats.failed.incrementAndGet();
        client.reply(Protocol.FAILED + " " + order.id() + " " + cause.getClass().getSimpleName() + ": "
                + cause.getMessage());
    }
}
