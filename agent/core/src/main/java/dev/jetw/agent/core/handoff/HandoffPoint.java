package dev.jetw.agent.core.handoff;

import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * The JDK's hand-off points (docs/cross-thread.md) and the call woven into each: which methods of which class (the
 * same rules the Byte Buddy matchers of the earlier advice had: name, arguments, for ForkJoinPool's execute/submit
 * public with a Runnable first, bridges included), and which static method of the boot-class-path {@code Handoff}
 * replaces the task argument at entry, or, for {@code shutdownNow}, sees the returned list.
 */
enum HandoffPoint {
    /** new FutureTask(Runnable, T): submit, invokeAll, invokeAny of every AbstractExecutorService, and the application's own. */
    FUTURE_TASK_OF_RUNNABLE("java/util/concurrent/FutureTask", "wrap", "(Ljava/lang/Runnable;I)Ljava/lang/Runnable;") {
        @Override
        boolean matches(int access, String name, String descriptor) {
            return name.equals("<init>") && descriptor.startsWith("(Ljava/lang/Runnable;") && arguments(descriptor) == 2;
        }

        @Override
        void pushArguments(MethodVisitor mv) {
            mv.visitVarInsn(Opcodes.ALOAD, 1);
            mv.visitInsn(Opcodes.ICONST_0 + EXECUTOR);
        }
    },
    /** new FutureTask(Callable). */
    FUTURE_TASK_OF_CALLABLE("java/util/concurrent/FutureTask", "wrap", "(Ljava/util/concurrent/Callable;I)Ljava/util/concurrent/Callable;") {
        @Override
        boolean matches(int access, String name, String descriptor) {
            return name.equals("<init>") && descriptor.startsWith("(Ljava/util/concurrent/Callable;)");
        }

        @Override
        void pushArguments(MethodVisitor mv) {
            mv.visitVarInsn(Opcodes.ALOAD, 1);
            mv.visitInsn(Opcodes.ICONST_0 + EXECUTOR);
        }
    },
    /** ThreadPoolExecutor.execute(Runnable): Handoff.wrapExecute(this, task). */
    POOL_EXECUTE("java/util/concurrent/ThreadPoolExecutor", "wrapExecute",
            "(Ljava/util/concurrent/ThreadPoolExecutor;Ljava/lang/Runnable;)Ljava/lang/Runnable;") {
        @Override
        boolean matches(int access, String name, String descriptor) {
            return name.equals("execute") && descriptor.startsWith("(Ljava/lang/Runnable;)");
        }

        @Override
        void pushArguments(MethodVisitor mv) {
            mv.visitVarInsn(Opcodes.ALOAD, 0);
            mv.visitVarInsn(Opcodes.ALOAD, 1);
        }
    },
    /** ThreadPoolExecutor.shutdownNow(): at its normal return, the application gets back its own tasks. */
    SHUTDOWN_NOW("java/util/concurrent/ThreadPoolExecutor", "unwrapAll", "(Ljava/util/List;)V") {
        @Override
        boolean matches(int access, String name, String descriptor) {
            return name.equals("shutdownNow") && descriptor.startsWith("()");
        }

        @Override
        boolean atExit() {
            return true;
        }
    },
    /** ForkJoinPool's public execute/submit with a Runnable first (bridges included, as the earlier matcher had them). */
    FORK_JOIN_RUNNABLE("java/util/concurrent/ForkJoinPool", "wrapForkJoin", "(Ljava/lang/Runnable;)Ljava/lang/Runnable;") {
        @Override
        boolean matches(int access, String name, String descriptor) {
            return (name.equals("execute") || name.equals("submit")) && (access & Opcodes.ACC_PUBLIC) != 0
                    && descriptor.startsWith("(Ljava/lang/Runnable;");
        }
    },
    /** ForkJoinPool.submit(Callable). */
    FORK_JOIN_CALLABLE("java/util/concurrent/ForkJoinPool", "wrap", "(Ljava/util/concurrent/Callable;I)Ljava/util/concurrent/Callable;") {
        @Override
        boolean matches(int access, String name, String descriptor) {
            return name.equals("submit") && descriptor.startsWith("(Ljava/util/concurrent/Callable;)");
        }

        @Override
        void pushArguments(MethodVisitor mv) {
            mv.visitVarInsn(Opcodes.ALOAD, 1);
            mv.visitInsn(Opcodes.ICONST_0 + FORK_JOIN);
        }
    },
    /** ForkJoinPool.invokeAll(Collection): a copy holding the linked tasks, in the same order. */
    FORK_JOIN_INVOKE_ALL("java/util/concurrent/ForkJoinPool", "wrapAll", "(Ljava/util/Collection;)Ljava/util/Collection;") {
        @Override
        boolean matches(int access, String name, String descriptor) {
            return name.equals("invokeAll") && descriptor.startsWith("(Ljava/util/Collection;)");
        }
    },
    /** ScheduledThreadPoolExecutor.schedule(Runnable, delay, unit), also behind its execute and submit: period 0. */
    SCHEDULE_RUNNABLE("java/util/concurrent/ScheduledThreadPoolExecutor", "wrapScheduled",
            "(Ljava/lang/Runnable;JJLjava/util/concurrent/TimeUnit;)Ljava/lang/Runnable;") {
        @Override
        boolean matches(int access, String name, String descriptor) {
            return name.equals("schedule") && descriptor.startsWith("(Ljava/lang/Runnable;JLjava/util/concurrent/TimeUnit;)");
        }

        @Override
        void pushArguments(MethodVisitor mv) {
            mv.visitVarInsn(Opcodes.ALOAD, 1);
            mv.visitVarInsn(Opcodes.LLOAD, 2);
            mv.visitInsn(Opcodes.LCONST_0);
            mv.visitVarInsn(Opcodes.ALOAD, 4);
        }
    },
    /** ScheduledThreadPoolExecutor.schedule(Callable, delay, unit). */
    SCHEDULE_CALLABLE("java/util/concurrent/ScheduledThreadPoolExecutor", "wrapScheduled",
            "(Ljava/util/concurrent/Callable;JLjava/util/concurrent/TimeUnit;)Ljava/util/concurrent/Callable;") {
        @Override
        boolean matches(int access, String name, String descriptor) {
            return name.equals("schedule") && descriptor.startsWith("(Ljava/util/concurrent/Callable;JLjava/util/concurrent/TimeUnit;)");
        }

        @Override
        void pushArguments(MethodVisitor mv) {
            mv.visitVarInsn(Opcodes.ALOAD, 1);
            mv.visitVarInsn(Opcodes.LLOAD, 2);
            mv.visitVarInsn(Opcodes.ALOAD, 4);
        }
    },
    /** scheduleAtFixedRate(task, initialDelay, period, unit): each run is due a period after the last due time. */
    SCHEDULE_AT_FIXED_RATE("java/util/concurrent/ScheduledThreadPoolExecutor", "wrapScheduled",
            "(Ljava/lang/Runnable;JJLjava/util/concurrent/TimeUnit;)Ljava/lang/Runnable;") {
        @Override
        boolean matches(int access, String name, String descriptor) {
            return name.equals("scheduleAtFixedRate") && descriptor.startsWith("(Ljava/lang/Runnable;JJLjava/util/concurrent/TimeUnit;)");
        }

        @Override
        void pushArguments(MethodVisitor mv) {
            mv.visitVarInsn(Opcodes.ALOAD, 1);
            mv.visitVarInsn(Opcodes.LLOAD, 2);
            mv.visitVarInsn(Opcodes.LLOAD, 4);
            mv.visitVarInsn(Opcodes.ALOAD, 6);
        }
    },
    /** scheduleWithFixedDelay(task, initialDelay, delay, unit): each run is due a delay after the last one ended (period -delay). */
    SCHEDULE_WITH_FIXED_DELAY("java/util/concurrent/ScheduledThreadPoolExecutor", "wrapScheduled",
            "(Ljava/lang/Runnable;JJLjava/util/concurrent/TimeUnit;)Ljava/lang/Runnable;") {
        @Override
        boolean matches(int access, String name, String descriptor) {
            return name.equals("scheduleWithFixedDelay") && descriptor.startsWith("(Ljava/lang/Runnable;JJLjava/util/concurrent/TimeUnit;)");
        }

        @Override
        void pushArguments(MethodVisitor mv) {
            mv.visitVarInsn(Opcodes.ALOAD, 1);
            mv.visitVarInsn(Opcodes.LLOAD, 2);
            mv.visitVarInsn(Opcodes.LLOAD, 4);
            mv.visitInsn(Opcodes.LNEG);
            mv.visitVarInsn(Opcodes.ALOAD, 6);
        }
    },
    /** A JDK executor that starts a thread per task (CompletableFuture's when the common pool has one thread). */
    THREAD_PER_TASK_EXECUTE("java/util/concurrent/CompletableFuture$ThreadPerTaskExecutor", "wrap",
            "(Ljava/lang/Runnable;I)Ljava/lang/Runnable;") {
        @Override
        boolean matches(int access, String name, String descriptor) {
            return name.equals("execute") && descriptor.startsWith("(Ljava/lang/Runnable;)");
        }

        @Override
        void pushArguments(MethodVisitor mv) {
            mv.visitVarInsn(Opcodes.ALOAD, 1);
            mv.visitInsn(Opcodes.ICONST_0 + EXECUTOR);
        }
    };

    /** The boot-class-path class the woven calls go to. */
    static final String HANDOFF = "dev/jetw/bootstrap/Handoff";
    /** dev.jetw.bootstrap.Handoff's kinds (compile-time constants there: the earlier advice inlined them too). */
    static final int EXECUTOR = dev.jetw.bootstrap.Handoff.EXECUTOR;
    static final int FORK_JOIN = dev.jetw.bootstrap.Handoff.FORK_JOIN;
    /** The most the woven calls add to the operand stack: wrapScheduled's task, two longs and a unit. */
    static final int MAX_STACK = 6;

    /** The class, internal name. */
    final String owner;
    /** The Handoff method called, and its descriptor. */
    final String method;
    final String descriptor;

    HandoffPoint(String owner, String method, String descriptor) {
        this.owner = owner;
        this.method = method;
        this.descriptor = descriptor;
    }

    /** Whether a method of {@link #owner} with code is this point. */
    abstract boolean matches(int access, String name, String descriptor);

    /** True when the call sees the returned value at a normal return; false when it replaces the first argument at entry. */
    boolean atExit() {
        return false;
    }

    /** Pushes the call's arguments at entry; by default only the task (local 1). */
    void pushArguments(MethodVisitor mv) {
        mv.visitVarInsn(Opcodes.ALOAD, 1);
    }

    /** The JDK classes that hold hand-off points, dotted. */
    static java.util.Set<String> classNames() {
        java.util.Set<String> names = new java.util.LinkedHashSet<>();
        for (HandoffPoint p : values()) {
            names.add(p.owner.replace('/', '.'));
        }
        return names;
    }

    /** The point a method of {@code owner} is, or null. */
    static HandoffPoint of(String owner, int access, String name, String descriptor) {
        for (HandoffPoint p : values()) {
            if (p.owner.equals(owner) && p.matches(access, name, descriptor)) {
                return p;
            }
        }
        return null;
    }

    private static int arguments(String descriptor) {
        return net.bytebuddy.jar.asm.Type.getArgumentTypes(descriptor).length;
    }
}
