package dev.jetw.samples.load;

import dev.jetw.samples.orders.Catalog;
import dev.jetw.samples.orders.Order;
import dev.jetw.samples.orders.OrderValidator;
import dev.jetw.samples.orders.PaymentService;
import dev.jetw.samples.orders.Pricing;

import java.util.Random;

/**
 * The load generator's source of orders (the clients' side: not part of the service). Order {@code k} of a run depends only on the seed and k, never
 * on which client thread sends it, so a run's outcome counts are reproducible.
 *
 * <p>Mix: about 5% unknown SKUs and 4% bad quantities (rejected), about 5% declined cards (failed).
 */
public final class OrderGenerator {
    static final String GOOD_CARD = "4111-1111-1111-1111";

    private final long seed;

    public OrderGenerator(long seed) {
        this.seed = seed;
    }

    public Order order(long k) {
        Random random = new Random(mix(seed, k));
        String customer = String.format("C%03d", random.nextInt(500));
        int roll = random.nextInt(100);
        String sku = roll < 5 ? "SKU-" + (9000 + random.nextInt(1000)) : Catalog.sku(random.nextInt(Catalog.SIZE));
        int quantity;
        if (roll >= 5 && roll < 9) {
            quantity = random.nextBoolean() ? 0 : OrderValidator.MAX_QUANTITY + 1 + random.nextInt(50);
        } else {
            // Mostly small orders, some big enough for the volume discount.
            quantity = random.nextInt(4) == 0 ? Pricing.VOLUME_QUANTITY + random.nextInt(20) : 1 + random.nextInt(5);
        }
        String card = roll >= 9 && roll < 14 ? PaymentService.DECLINED_CARD : GOOD_CARD;
        return new Order(k, customer, sku, quantity, card);
    }

    /** SplitMix64 finaliser: neighbouring k give unrelated Random seeds. */
    private static long mix(long seed, long k) {
        long z = seed * 0x9E3779B97F4A7C15L + k;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
