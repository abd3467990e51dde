package dev.jetw.agent.core.handoff;

import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The JDK's hand-off points (docs/cross-thread.md) and the call woven into each: which methods of which class (the
 * rules the Byte Buddy matchers of the earlier advice had: name and arguments; for ForkJoinPool's execute/submit,
 * public with a Runnable first, javac's bridges included), and which static method of the boot-class-path
 * {@code Handoff} replaces the task argument at entry with what it returns, or, for {@code shutdownNow}, sees the
 * returned list at each normal return.
 */
enum HandoffPoint {
    /** new FutureTask(Runnable, T): submit, invokeAll, invokeAny of every AbstractExecutorService, and the application's own. */
    FUTURE_TASK_OF_RUNNABLE(Owner.FUTURE_TASK, "<init>", "(Ljava/lang/Runnable;Ljava/lang/Object;)", false,
            "wrap", "(Ljava/lang/Runnable;I)Ljava/lang/Runnable;", "a1 k" + Kind.EXECUTOR),
    /** new FutureTask(Callable). */
    FUTURE_TASK_OF_CALLABLE(Owner.FUTURE_TASK, "<init>", "(Ljava/util/concurrent/Callable;)", false,
            "wrap", "(Ljava/util/concurrent/Callable;I)Ljava/util/concurrent/Callable;", "a1 k" + Kind.EXECUTOR),
    /** ThreadPoolExecutor.execute(Runnable): Handoff.wrapExecute(this, task). */
    POOL_EXECUTE(Owner.POOL, "execute", "(Ljava/lang/Runnable;)", false,
            "wrapExecute", "(Ljava/util/concurrent/ThreadPoolExecutor;Ljava/lang/Runnable;)Ljava/lang/Runnable;", "a0 a1"),
    /** ThreadPoolExecutor.shutdownNow(): at its normal returns the application gets back its own tasks. */
    SHUTDOWN_NOW(Owner.POOL, "shutdownNow", "()", false, "unwrapAll", "(Ljava/util/List;)V", Descriptors.AT_EXIT),
    /** ForkJoinPool's public execute/submit with a Runnable first. */
    FORK_JOIN_RUNNABLE(Owner.FORK_JOIN_POOL, "execute|submit", "(Ljava/lang/Runnable;", true,
            "wrapForkJoin", "(Ljava/lang/Runnable;)Ljava/lang/Runnable;", "a1"),
    /** ForkJoinPool.submit(Callable). */
    FORK_JOIN_CALLABLE(Owner.FORK_JOIN_POOL, "submit", "(Ljava/util/concurrent/Callable;)", false,
            "wrap", "(Ljava/util/concurrent/Callable;I)Ljava/util/concurrent/Callable;", "a1 k" + Kind.FORK_JOIN),
    /** ForkJoinPool.invokeAll(Collection): a copy holding the linked tasks, in the same order. */
    FORK_JOIN_INVOKE_ALL(Owner.FORK_JOIN_POOL, "invokeAll", "(Ljava/util/Collection;)", false,
            "wrapAll", "(Ljava/util/Collection;)Ljava/util/Collection;", "a1"),
    /** ScheduledThreadPoolExecutor.schedule(Runnable, delay, unit), also behind its execute and submit: period 0. */
    SCHEDULE_RUNNABLE(Owner.SCHEDULED_POOL, "schedule", "(Ljava/lang/Runnable;JLjava/util/concurrent/TimeUnit;)", false,
            "wrapScheduled", Descriptors.SCHEDULED_RUNNABLE, "a1 l2 l0 a4"),
    /** ScheduledThreadPoolExecutor.schedule(Callable, delay, unit). */
    SCHEDULE_CALLABLE(Owner.SCHEDULED_POOL, "schedule", "(Ljava/util/concurrent/Callable;JLjava/util/concurrent/TimeUnit;)", false,
            "wrapScheduled", "(Ljava/util/concurrent/Callable;JLjava/util/concurrent/TimeUnit;)Ljava/util/concurrent/Callable;", "a1 l2 a4"),
    /** scheduleAtFixedRate(task, initialDelay, period, unit): each run is due a period after the last due time. */
    SCHEDULE_AT_FIXED_RATE(Owner.SCHEDULED_POOL, "scheduleAtFixedRate", Descriptors.FIXED_SCHEDULE, false,
            "wrapScheduled", Descriptors.SCHEDULED_RUNNABLE, "a1 l2 l4 a6"),
    /** scheduleWithFixedDelay(task, initialDelay, delay, unit): each run is due a delay after the last ended (period -delay). */
    SCHEDULE_WITH_FIXED_DELAY(Owner.SCHEDULED_POOL, "scheduleWithFixedDelay", Descriptors.FIXED_SCHEDULE, false,
            "wrapScheduled", Descriptors.SCHEDULED_RUNNABLE, "a1 l2 l4 neg a6"),
    /** A JDK executor that starts a thread per task (CompletableFuture's when the common pool has one thread). */
    THREAD_PER_TASK_EXECUTE("java/util/concurrent/CompletableFuture$ThreadPerTaskExecutor", "execute", "(Ljava/lang/Runnable;)", false,
            "wrap", "(Ljava/lang/Runnable;I)Ljava/lang/Runnable;", "a1 k" + Kind.EXECUTOR);

    /** The boot-class-path class the woven calls go to. */
    static final String HANDOFF = "dev/jetw/bootstrap/Handoff";
    /** The most the woven calls add to the operand stack: wrapScheduled's task, two longs and a unit. */
    static final int MAX_STACK = 6;

    /** The class, internal name. */
    final String owner;
    /** The method names, separated by '|', the start of their descriptor, and whether only public ones are points. */
    private final String names;
    private final String descriptorStart;
    private final boolean publicOnly;
    /** The Handoff method called, and its descriptor. */
    final String method;
    final String descriptor;
    /**
     * What is pushed for the call at entry, in order: {@code aN} the reference in local N, {@code lN} the long in
     * local N ({@code l0}: the constant 0L), {@code neg} negates the long on top, {@code kN} the int constant N.
     */
    private final String[] loads;

    HandoffPoint(String owner, String names, String descriptorStart, boolean publicOnly, String method, String descriptor,
                 String loads) {
        this.owner = owner;
        this.names = "|" + names + "|";
        this.descriptorStart = descriptorStart;
        this.publicOnly = publicOnly;
        this.method = method;
        this.descriptor = descriptor;
        this.loads = loads.isEmpty() ? new String[0] : loads.split(" ");
    }

    /** True when the call sees the returned value at a normal return; false when it replaces the task argument at entry. */
    boolean atExit() {
        return loads.length == 0;
    }

    /** True when the call returns the task that replaces the argument in local 1. */
    boolean replacesTask() {
        return !descriptor.endsWith(")V");
    }

    /** Pushes the call's arguments at entry. */
    void pushArguments(MethodVisitor mv) {
        for (String load : loads) {
            if (load.equals("neg")) {
                mv.visitInsn(Opcodes.LNEG);
                continue;
            }
            int n = Integer.parseInt(load.substring(1));
            switch (load.charAt(0)) {
                case 'a':
                    mv.visitVarInsn(Opcodes.ALOAD, n);
                    break;
                case 'l':
                    if (n == 0) {
                        mv.visitInsn(Opcodes.LCONST_0);
                    } else {
                        mv.visitVarInsn(Opcodes.LLOAD, n);
                    }
                    break;
                default:
                    mv.visitInsn(Opcodes.ICONST_0 + n);
            }
        }
    }

    /** The JDK classes that hold hand-off points, dotted. */
    static Set<String> classNames() {
        Set<String> classes = new LinkedHashSet<>();
        for (HandoffPoint p : values()) {
            classes.add(p.owner.replace('/', '.'));
        }
        return classes;
    }

    /** The point a method (with code) of {@code owner} is, or null. */
    static HandoffPoint of(String owner, int access, String name, String descriptor) {
        for (HandoffPoint p : values()) {
            if (p.owner.equals(owner) && p.names.contains("|" + name + "|") && descriptor.startsWith(p.descriptorStart)
                    && (!p.publicOnly || (access & Opcodes.ACC_PUBLIC) != 0)) {
                return p;
            }
        }
        return null;
    }

    /** The classes, internal names. */
    private static final class Owner {
        static final String FUTURE_TASK = "java/util/concurrent/FutureTask";
        static final String POOL = "java/util/concurrent/ThreadPoolExecutor";
        static final String FORK_JOIN_POOL = "java/util/concurrent/ForkJoinPool";
        static final String SCHEDULED_POOL = "java/util/concurrent/ScheduledThreadPoolExecutor";
    }

    /** dev.jetw.bootstrap.Handoff's kinds (compile-time constants there: the earlier advice inlined them too). */
    private static final class Kind {
        static final int EXECUTOR = dev.jetw.bootstrap.Handoff.EXECUTOR;
        static final int FORK_JOIN = dev.jetw.bootstrap.Handoff.FORK_JOIN;
    }

    /** Descriptors several points share. */
    private static final class Descriptors {
        static final String SCHEDULED_RUNNABLE = "(Ljava/lang/Runnable;JJLjava/util/concurrent/TimeUnit;)Ljava/lang/Runnable;";
        static final String FIXED_SCHEDULE = "(Ljava/lang/Runnable;JJLjava/util/concurrent/TimeUnit;)";
        /** The loads of an exit point: none, the returned value is the argument. */
        static final String AT_EXIT = "";
    }
}
