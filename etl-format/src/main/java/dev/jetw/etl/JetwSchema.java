package dev.jetw.etl;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.UUID;

/**
 * The events jetw's agent writes: one classic provider with four event classes. This is the
 * payload contract between the agent (writer), the .etl tools (reader) and the MOF schema.
 * All integers little-endian; strings UTF-16LE, NUL-terminated ("UTF-16Z"); no padding.
 *
 * <pre>
 * MethodCall  (instance events, TraceEventInstance; instance id per call, parent = enclosing traced call)
 *   START      u32 methodId
 *   END        u32 methodId, UTF-16Z exceptionClass ("" for a normal return)
 *   CHECKPOINT u32 methodId (of the enclosing call, 0 if none), UTF-16Z label
 * Method      (plain events, TraceEvent: rundown of method names)
 *   DC_START / DC_END  u32 methodId, UTF-16Z className, UTF-16Z methodName, UTF-16Z descriptor
 * Thread      (plain events: rundown of thread names)
 *   DC_START / DC_END  version 0: u64 javaThreadId, UTF-16Z threadName
 *                      version 1: u64 javaThreadId, u64 osThreadId, UTF-16Z threadName
 *              osThreadId: the kernel's id of the thread (Linux: its tid, read by the thread itself from
 *              /proc/thread-self), 0 when unknown (a virtual thread: it has no thread of its own, only a
 *              carrier at each moment; or a platform that does not say). Readers accept both versions; the
 *              name stays last so that a cut record still ends in its string (TruncationMark).
 * MethodExclusion (plain events, level 0: a method the agent stopped tracing while attached, and why)
 *   INFO       u32 methodId, u32 callsObserved, u32 longCalls, u64 shortNanos, UTF-16Z reason
 *              ("hot-short": callsObserved calls, at most longCalls of them lasting shortNanos or more;
 *              methodId 0 and reason "trivial: N methods of rule R not instrumented": a count, written at stop;
 *              methodId 0 and reason "left alone at attach (attachHot=skip): CLASS (WHY)": a class an attach did not
 *              instrument, written when its attach ramp is done)
 * </pre>
 *
 * <p>Then the JVM runtime event classes (option {@code jvm=}, issue 14), one per family plus GcPause,
 * each payload starting with the SUBJECT thread's u64 OS thread id and u64 Java thread id (0 when
 * none): their types and fields are {@link JvmEventSchema}, the one description the writer, the
 * MOF and the tools share.
 */
public final class JetwSchema {

    /** The provider's control GUID (what EnableTrace names). */
    public static final UUID CONTROL_GUID = UUID.fromString("ae4817a0-1d02-417c-86ab-1b35e4dc7413");
    public static final UUID METHOD_CALL_CLASS = UUID.fromString("7a5b8b9a-f22e-438a-9533-5236198b6091");
    public static final UUID METHOD_CLASS = UUID.fromString("234dd2f8-bb58-4d18-9b42-a9b3b8b0fe19");
    public static final UUID THREAD_CLASS = UUID.fromString("df5cf030-f5ee-4df2-8588-c43566c90da5");
    public static final UUID METHOD_EXCLUSION_CLASS = UUID.fromString("510ffabf-a270-4f95-a073-c6d4cc9fb12c");
    public static final UUID JVM_GC_CLASS = UUID.fromString("3b86208b-4386-4656-8b63-0bd0d0f9eb4b");
    public static final UUID JVM_GC_PAUSE_CLASS = UUID.fromString("321660ec-2480-4e2b-8578-78af086861df");
    public static final UUID JVM_SAFEPOINT_CLASS = UUID.fromString("bec87242-344d-4d9f-9dcd-eda74050f9c1");
    public static final UUID JVM_CONTENTION_CLASS = UUID.fromString("8eecad42-a88f-4e84-9875-b081d3430e9f");
    public static final UUID JVM_PARK_CLASS = UUID.fromString("6ddbc933-70e1-4dc7-98fc-db9ac373ad46");
    public static final UUID JVM_JIT_CLASS = UUID.fromString("8273e70c-3399-48d9-a7f6-b5840d52107c");
    public static final UUID JVM_CLASS_LOAD_CLASS = UUID.fromString("ed98a391-3b01-4979-90d3-5cd4d78e3400");
    public static final UUID JVM_EXCEPTION_CLASS = UUID.fromString("4f443bc0-7736-4348-a4ba-23855c3f3032");
    public static final UUID JVM_THREAD_CLASS = UUID.fromString("061c38bf-7c29-4817-ba8d-58786b819eb2");
    public static final UUID JVM_IO_CLASS = UUID.fromString("4ab16777-c895-4945-a961-01b8efb51e19");

    /** Event classes in registration order; the index is the classIndex of ProviderBackend. */
    public static final List<UUID> EVENT_CLASSES =
            Collections.unmodifiableList(Arrays.asList(METHOD_CALL_CLASS, METHOD_CLASS, THREAD_CLASS,
                    JVM_GC_CLASS, JVM_GC_PAUSE_CLASS, JVM_SAFEPOINT_CLASS, JVM_CONTENTION_CLASS, JVM_PARK_CLASS,
                    JVM_JIT_CLASS, JVM_CLASS_LOAD_CLASS, JVM_EXCEPTION_CLASS, JVM_THREAD_CLASS, JVM_IO_CLASS,
                    METHOD_EXCLUSION_CLASS));
    public static final int METHOD_CALL_INDEX = 0;
    public static final int METHOD_INDEX = 1;
    public static final int THREAD_INDEX = 2;
    public static final int JVM_GC_INDEX = 3;
    public static final int JVM_GC_PAUSE_INDEX = 4;
    public static final int JVM_SAFEPOINT_INDEX = 5;
    public static final int JVM_CONTENTION_INDEX = 6;
    public static final int JVM_PARK_INDEX = 7;
    public static final int JVM_JIT_INDEX = 8;
    public static final int JVM_CLASS_LOAD_INDEX = 9;
    public static final int JVM_EXCEPTION_INDEX = 10;
    public static final int JVM_THREAD_INDEX = 11;
    public static final int JVM_IO_INDEX = 12;
    public static final int METHOD_EXCLUSION_INDEX = 13;
    /** The reason of a MethodExclusion by adaptive exclusion: called often, (nearly) always short. */
    public static final String EXCLUSION_HOT_SHORT = "hot-short";
    /**
     * MethodExclusion reason of a hot method given a duration threshold by the agent, followed by the
     * threshold ("hot-threshold=1ms"): from that event on only its calls at least that long are written.
     */
    public static final String EXCLUSION_HOT_THRESHOLD = "hot-threshold=";
    /**
     * MethodExclusion reason of a hot method the agent had given its threshold and excluded after its
     * counted calls (callsObserved) all stayed under it (longNanos = the threshold, longCalls 0).
     */
    public static final String EXCLUSION_HOT_FAST = "hot-fast";
    /**
     * MethodExclusion reason of the record the agent writes at stop per include rule that left trivial methods
     * uninstrumented (option trivial=): methodId 0, counts 0, reason "trivial: N methods of rule R not instrumented".
     */
    public static final String EXCLUSION_TRIVIAL = "trivial: ";
    /**
     * Appended to the reason (hot-short, hot-fast, hot-threshold=T) of a decision the agent took from an earlier
     * trace (option hotMethods=) rather than from calls it observed: written after the method's DC_START, counts 0.
     */
    public static final String EXCLUSION_KNOWN_SUFFIX = " (from hotMethods=)";
    /**
     * MethodExclusion reason of a method left without advice because it was running hot in the thread samples the agent
     * took at attach (docs/attach-ramp.md): written after the method's DC_START, counts 0; not carried by hot-methods lists.
     */
    public static final String EXCLUSION_RUNNING_AT_ATTACH = "running hot at attach";
    /**
     * MethodExclusion reason of the records the agent writes when an attach ramp with {@code attachHot=skip} is done, one per
     * loaded class the options select that it left alone (docs/attach-ramp.md): methodId 0, counts 0, reason
     * "left alone at attach (attachHot=skip): CLASS (WHY)", WHY one of {@link #LEFT_ALONE_WHY}. None of the class's methods
     * is traced in that attach, so that a user looking for one in the trace learns why it is absent.
     */
    public static final String EXCLUSION_LEFT_ALONE_AT_ATTACH = "left alone at attach (attachHot=skip): ";
    /** Why a class was hot at attach: on a thread's running stack, holding compiled code, or with a small method hot code calls. */
    public static final List<String> LEFT_ALONE_WHY = Collections.unmodifiableList(Arrays.asList(
            "on a running stack", "compiled", "a small method hot code calls"));

    public static final String PROVIDER_NAME = "jetw";
    /** The version of the Thread rundown the agent writes (1: with the OS thread id). */
    public static final int THREAD_VERSION = 1;

    private JetwSchema() {
    }
}
