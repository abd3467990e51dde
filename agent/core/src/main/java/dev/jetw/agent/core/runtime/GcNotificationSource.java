package dev.jetw.agent.core.runtime;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.RuntimeMXBean;
import java.util.ArrayList;
import java.util.List;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.TabularData;

/**
 * The {@code gc} family on JVMs without JFR streaming (Java 8 to 16) or when JFR fails: the GC
 * MXBeans' notifications ({@code com.sun.management.gc.notification}, HotSpot and OpenJ9), read
 * through their open data so that no {@code com.sun.management} class is linked. Each notification
 * gives one JvmGc START/END (no pause breakdown: LongestPauseNs and SumOfPausesNs are the
 * collection's duration for a stop-the-world collector and 0 for a concurrent one) and heap-used
 * INFO events before and after. Times are milliseconds of JVM uptime, converted to
 * {@code System.nanoTime()} at each notification: about a millisecond of error.
 */
final class GcNotificationSource implements RuntimeEventSource, NotificationListener {

    static final String GC_NOTIFICATION = "com.sun.management.gc.notification";

    private final RuntimeEventWriter writer;
    private final RuntimeMXBean runtime = ManagementFactory.getRuntimeMXBean();
    private final List<NotificationEmitter> emitters = new ArrayList<>();

    GcNotificationSource(RuntimeEventWriter writer) {
        this.writer = writer;
    }

    @Override
    public void start() {
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter) {
                ((NotificationEmitter) gc).addNotificationListener(this, null, null);
                emitters.add((NotificationEmitter) gc);
            }
        }
        if (emitters.isEmpty()) {
            throw new IllegalStateException("no GarbageCollectorMXBean sends notifications");
        }
    }

    @Override
    public String families() {
        return "gc";
    }

    @Override
    public void stop() {
        for (NotificationEmitter e : emitters) {
            try {
                e.removeNotificationListener(this);
            } catch (ListenerNotFoundException | RuntimeException ignored) {
                // already gone
            }
        }
        emitters.clear();
    }

    @Override
    public void handleNotification(Notification n, Object handback) {
        try {
            if (GC_NOTIFICATION.equals(n.getType()) && n.getUserData() instanceof CompositeData) {
                collection((CompositeData) n.getUserData());
            }
        } catch (RuntimeException e) {
            dev.jetw.bootstrap.Dispatcher.failed(e); // counted as an internal error; the JVM's thread goes on
        }
    }

    private void collection(CompositeData data) {
        String name = (String) data.get("gcName");
        String cause = (String) data.get("gcCause");
        String action = (String) data.get("gcAction");
        CompositeData info = (CompositeData) data.get("gcInfo");
        long id = (Long) info.get("id");
        long startMs = (Long) info.get("startTime");
        long endMs = (Long) info.get("endTime");
        long nowNanos = System.nanoTime();
        long uptimeMs = runtime.getUptime();
        long start = nowNanos - (uptimeMs - startMs) * 1_000_000L;
        long end = nowNanos - (uptimeMs - endMs) * 1_000_000L;
        boolean concurrent = action != null && action.toLowerCase(java.util.Locale.ROOT).contains("concurrent")
                || name != null && name.contains("Concurrent");
        long pause = concurrent ? 0 : (endMs - startMs) * 1_000_000L;
        int gcId = (int) id;
        writer.gcHeap(start, gcId, false, used((TabularData) info.get("memoryUsageBeforeGc")));
        writer.gc(start, end, gcId, name, cause, pause, pause);
        writer.gcHeap(end, gcId, true, used((TabularData) info.get("memoryUsageAfterGc")));
    }

    /** Sum of "used" over the memory pools of a GcInfo usage table. */
    private static long used(TabularData pools) {
        long sum = 0;
        if (pools != null) {
            for (Object row : pools.values()) {
                Object usage = ((CompositeData) row).get("value");
                if (usage instanceof CompositeData) {
                    sum += (Long) ((CompositeData) usage).get("used");
                }
            }
        }
        return sum;
    }
}
