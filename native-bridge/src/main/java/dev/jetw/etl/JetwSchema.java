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
 *   DC_START / DC_END  u64 javaThreadId, UTF-16Z threadName
 * MethodExclusion (plain events, level 0: a method the agent stopped tracing while attached, and why)
 *   INFO       u32 methodId, u32 callsObserved, u32 longCalls, u64 shortNanos, UTF-16Z reason
 *              ("hot-short": callsObserved calls, at most longCalls of them lasting shortNanos or more)
 * </pre>
 */
public final class JetwSchema {

    /** The provider's control GUID (what EnableTrace names). */
    public static final UUID CONTROL_GUID = UUID.fromString("ae4817a0-1d02-417c-86ab-1b35e4dc7413");
    public static final UUID METHOD_CALL_CLASS = UUID.fromString("7a5b8b9a-f22e-438a-9533-5236198b6091");
    public static final UUID METHOD_CLASS = UUID.fromString("234dd2f8-bb58-4d18-9b42-a9b3b8b0fe19");
    public static final UUID THREAD_CLASS = UUID.fromString("df5cf030-f5ee-4df2-8588-c43566c90da5");
    public static final UUID METHOD_EXCLUSION_CLASS = UUID.fromString("510ffabf-a270-4f95-a073-c6d4cc9fb12c");

    /** Event classes in registration order; the index is the classIndex of ProviderBackend. */
    public static final List<UUID> EVENT_CLASSES =
            Collections.unmodifiableList(Arrays.asList(METHOD_CALL_CLASS, METHOD_CLASS, THREAD_CLASS, METHOD_EXCLUSION_CLASS));
    public static final int METHOD_CALL_INDEX = 0;
    public static final int METHOD_INDEX = 1;
    public static final int THREAD_INDEX = 2;
    public static final int METHOD_EXCLUSION_INDEX = 3;
    /** The reason of a MethodExclusion by adaptive exclusion: called often, (nearly) always short. */
    public static final String EXCLUSION_HOT_SHORT = "hot-short";

    public static final String PROVIDER_NAME = "jetw";

    private JetwSchema() {
    }
}
