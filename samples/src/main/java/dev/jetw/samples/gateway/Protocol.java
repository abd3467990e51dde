package dev.jetw.samples.gateway;

import dev.jetw.samples.orders.Order;

/**
 * The gateway's line protocol (UTF-8, one request or reply per line).
 * <pre>
 * client: ORDER &lt;id&gt; &lt;customer&gt; &lt;sku&gt; &lt;quantity&gt; &lt;card&gt;
 * server: OK &lt;id&gt; &lt;totalCents&gt; &lt;journalSequence&gt; | REJECTED &lt;id&gt; &lt;reason&gt; | FAILED &lt;id&gt; &lt;reason&gt;
 * client: SHUTDOWN        server: BYE   (stops the gateway)
 * </pre>
 */
public final class Protocol {
    public static final String ORDER = "ORDER";
    public static final String OK = "OK";
    public static final String REJECTED = "REJECTED";
    public static final String FAILED = "FAILED";
    public static final String ERROR = "ERROR";
    public static final String SHUTDOWN = "SHUTDOWN";
    public static final String BYE = "BYE";

    private Protocol() {
    }

    public static String orderLine(Order order) {
        return ORDER + " " + order.id() + " " + order.customer() + " " + order.sku() + " " + order.quantity()
                + " " + order.card();
    }

    /** Parses an ORDER line; throws IllegalArgumentException naming what is wrong. */
    public static Order parseOrder(String line) {
        String[] f = line.split(" ");
        if (f.length != 6 || !ORDER.equals(f[0])) {
            throw new IllegalArgumentException("expected 'ORDER id customer sku quantity card', got '" + line + "'");
        }
        try {
            return new Order(Long.parseLong(f[1]), f[2], f[3], Integer.parseInt(f[4]), f[5]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("id and quantity must be integers in '" + line + "'");
        }
    }

    /** The first word of a reply: OK, REJECTED, FAILED, ERROR or BYE. */
    public static String kind(String reply) {
        int space = reply.indexOf(' ');
        return space < 0 ? reply : reply.substring(0, space);
    }
}
