package dev.jetw.samples;

import dev.jetw.samples.gateway.OrderGateway;
import dev.jetw.samples.orders.Catalog;
import dev.jetw.samples.orders.Inventory;
import dev.jetw.samples.orders.Journal;
import dev.jetw.samples.orders.OrderProcessor;
import dev.jetw.samples.orders.PaymentService;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Wires the service together (catalog, inventory, payments, journal, gateway) and owns its lifecycle. */
public final class OrderService implements Closeable {
    private final Journal journal;
    private final OrderGateway gateway;
    private final boolean temporaryJournal;

    private OrderService(Journal journal, OrderGateway gateway, boolean temporaryJournal) {
        this.journal = journal;
        this.gateway = gateway;
        this.temporaryJournal = temporaryJournal;
    }

    public static OrderService start(AppOptions options) throws IOException {
        boolean temporary = options.journal() == null;
        Path file = temporary ? Files.createTempFile("jetw-orders-", ".journal") : options.journal();
        Journal journal = new Journal(file, options.fsync());
        Catalog catalog = new Catalog();
        OrderProcessor processor = new OrderProcessor(catalog, new Inventory(catalog), new PaymentService(), journal);
        try {
            return new OrderService(journal, OrderGateway.start(processor, options.workers(), options.port()), temporary);
        } catch (IOException e) {
            journal.close();
            throw e;
        }
    }

    public OrderGateway gateway() {
        return gateway;
    }

    public Journal journal() {
        return journal;
    }

    /** Stops the gateway (in-flight orders finish first), closes the journal, deletes a temporary journal. */
    @Override
    public void close() throws IOException {
        gateway.close();
        journal.close();
        if (temporaryJournal) {
            Files.deleteIfExists(journal.file());
        }
    }
}
