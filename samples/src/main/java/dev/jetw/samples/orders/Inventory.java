package dev.jetw.samples.orders;

import java.util.HashMap;
import java.util.Map;

/**
 * Stock per SKU. Each SKU has its own lock, so workers reserving different products do not contend.
 * When stock runs low the warehouse restocks it, so a reservation never fails: the sample's outcomes
 * depend only on the orders, never on thread interleaving (that is what makes its counts testable).
 */
public final class Inventory {
    static final int INITIAL_STOCK = 200;
    static final int RESTOCK_AMOUNT = 500;

    private final Map<String, StockLevel> stock = new HashMap<>();

    public Inventory(Catalog catalog) {
        for (int i = 0; i < Catalog.SIZE; i++) {
            stock.put(Catalog.sku(i), new StockLevel(INITIAL_STOCK));
        }
    }

    /** Takes {@code quantity} units of a validated order's SKU out of stock. */
    public void reserve(Order order) {
        level(order.sku()).take(order.quantity());
    }

    /** Puts a reservation back (payment failed). */
    public void release(Order order) {
        level(order.sku()).putBack(order.quantity());
    }

    /** Units on hand, for tests and reports. */
    public int onHand(String sku) {
        return level(sku).onHand();
    }

    private StockLevel level(String sku) {
        StockLevel level = stock.get(sku);
        if (level == null) {
            throw new IllegalArgumentException("unknown SKU " + sku);
        }
        return level;
    }

    private static final class StockLevel {
        private int onHand;

        StockLevel(int onHand) {
            this.onHand = onHand;
        }

        synchronized void take(int quantity) {
            while (onHand < quantity) {
                onHand += RESTOCK_AMOUNT;
            }
            onHand -= quantity;
        }

        synchronized void putBack(int quantity) {
            onHand += quantity;
        }

        synchronized int onHand() {
            return onHand;
        }
    }
}
