/*
 * A stand-in for advapi32's ETW exports, built by StubBindingTest with the host gcc
 * (-shared -fPIC) and bound through jetw's REAL JNA mapping (JnaNativeEtw.load(path)).
 *
 * Why: a Java-level fake cannot catch a wrong JNA signature (an int where the SDK has a
 * ULONG64 handle, a missing argument, a pointer passed by value). Native code receiving the
 * call through the real calling convention can. Every function here has the SDK prototype
 * written with fixed-width types, records what arrives (argument values, copies of struct
 * bytes and UTF-16LE names), and answers as the documentation says.
 *
 * The structs are the x64 SDK layouts (the host is LP64 like Win64 for these types: every
 * member is a fixed-width integer, a pointer or a GUID), pinned by _Static_assert below to the
 * values mingw-w64's x86_64 compiler gives for evntrace.h / wmistr.h.
 *
 * Windows' SetLastError maps to errno here: JNA reads errno on Linux where it reads
 * GetLastError on Windows, so LastErrorException behaves the same.
 *
 * Accessors (stub_*) let the test read the recording. Not thread-safe: the test calls serially
 * (a callback on its own thread is joined before the calling function returns).
 */
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

/* ---- SDK types, fixed width ---- */
typedef struct { uint32_t Data1; uint16_t Data2; uint16_t Data3; uint8_t Data4[8]; } GUID;

typedef struct {
    uint32_t BufferSize;
    uint32_t ProviderId;
    uint64_t HistoricalContext;   /* union { ULONG64; struct { ULONG Version; ULONG Linkage; } } */
    int64_t  TimeStamp;           /* union { ULONG CountLost; HANDLE KernelHandle; LARGE_INTEGER TimeStamp; } */
    GUID     Guid;
    uint32_t ClientContext;
    uint32_t Flags;
} WNODE_HEADER;

typedef struct {
    WNODE_HEADER Wnode;
    uint32_t BufferSize, MinimumBuffers, MaximumBuffers, MaximumFileSize, LogFileMode, FlushTimer, EnableFlags;
    int32_t  AgeLimit;
    uint32_t NumberOfBuffers, FreeBuffers, EventsLost, BuffersWritten, LogBuffersLost, RealTimeBuffersLost;
    void    *LoggerThreadId;      /* HANDLE: pointer-sized */
    uint32_t LogFileNameOffset;
    uint32_t LoggerNameOffset;
} EVENT_TRACE_PROPERTIES;

typedef struct {
    uint16_t Size;
    uint16_t FieldTypeFlags;
    uint8_t  Type;                /* Class.Type */
    uint8_t  Level;               /* Class.Level */
    uint16_t Version;             /* Class.Version */
    uint32_t ThreadId;
    uint32_t ProcessId;
    int64_t  TimeStamp;
    GUID     Guid;                /* union { GUID Guid; ULONGLONG GuidPtr; } */
    uint32_t ClientContext;       /* union { KernelTime/UserTime; ProcessorTime; ClientContext/Flags } */
    uint32_t Flags;
} EVENT_TRACE_HEADER;

typedef struct {
    uint16_t Size;
    uint16_t FieldTypeFlags;
    uint8_t  Type;
    uint8_t  Level;
    uint16_t Version;
    uint32_t ThreadId;
    uint32_t ProcessId;
    int64_t  TimeStamp;
    uint64_t RegHandle;           /* ULONGLONG, 8 bytes even on x86 */
    uint32_t InstanceId;
    uint32_t ParentInstanceId;
    uint32_t EventId;             /* union { KernelTime/UserTime; ProcessorTime; EventId/Flags } */
    uint32_t Flags;
    uint64_t ParentRegHandle;
} EVENT_INSTANCE_HEADER;

typedef struct { void *RegHandle; uint32_t InstanceId; } EVENT_INSTANCE_INFO;
typedef struct { const GUID *Guid; void *RegHandle; } TRACE_GUID_REGISTRATION;
typedef struct { uint64_t DataPtr; uint32_t Length; uint32_t DataType; } MOF_FIELD;

typedef uint32_t (*WMIDPREQUEST)(uint32_t RequestCode, void *RequestContext, uint32_t *BufferSize, void *Buffer);

/* ---- the SDK x64 layouts (mingw-w64 x86_64 / etw-api.md §2) ---- */
_Static_assert(sizeof(GUID) == 16, "GUID");
_Static_assert(sizeof(WNODE_HEADER) == 48, "WNODE_HEADER size");
_Static_assert(offsetof(WNODE_HEADER, ProviderId) == 4, "WNODE.ProviderId");
_Static_assert(offsetof(WNODE_HEADER, HistoricalContext) == 8, "WNODE.HistoricalContext");
_Static_assert(offsetof(WNODE_HEADER, TimeStamp) == 16, "WNODE.TimeStamp");
_Static_assert(offsetof(WNODE_HEADER, Guid) == 24, "WNODE.Guid");
_Static_assert(offsetof(WNODE_HEADER, ClientContext) == 40, "WNODE.ClientContext");
_Static_assert(offsetof(WNODE_HEADER, Flags) == 44, "WNODE.Flags");
_Static_assert(sizeof(EVENT_TRACE_PROPERTIES) == 120, "EVENT_TRACE_PROPERTIES size");
_Static_assert(offsetof(EVENT_TRACE_PROPERTIES, BufferSize) == 48, "ETP.BufferSize");
_Static_assert(offsetof(EVENT_TRACE_PROPERTIES, MinimumBuffers) == 52, "ETP.MinimumBuffers");
_Static_assert(offsetof(EVENT_TRACE_PROPERTIES, MaximumBuffers) == 56, "ETP.MaximumBuffers");
_Static_assert(offsetof(EVENT_TRACE_PROPERTIES, MaximumFileSize) == 60, "ETP.MaximumFileSize");
_Static_assert(offsetof(EVENT_TRACE_PROPERTIES, LogFileMode) == 64, "ETP.LogFileMode");
_Static_assert(offsetof(EVENT_TRACE_PROPERTIES, FlushTimer) == 68, "ETP.FlushTimer");
_Static_assert(offsetof(EVENT_TRACE_PROPERTIES, EnableFlags) == 72, "ETP.EnableFlags");
_Static_assert(offsetof(EVENT_TRACE_PROPERTIES, AgeLimit) == 76, "ETP.AgeLimit");
_Static_assert(offsetof(EVENT_TRACE_PROPERTIES, NumberOfBuffers) == 80, "ETP.NumberOfBuffers");
_Static_assert(offsetof(EVENT_TRACE_PROPERTIES, FreeBuffers) == 84, "ETP.FreeBuffers");
_Static_assert(offsetof(EVENT_TRACE_PROPERTIES, EventsLost) == 88, "ETP.EventsLost");
_Static_assert(offsetof(EVENT_TRACE_PROPERTIES, BuffersWritten) == 92, "ETP.BuffersWritten");
_Static_assert(offsetof(EVENT_TRACE_PROPERTIES, LogBuffersLost) == 96, "ETP.LogBuffersLost");
_Static_assert(offsetof(EVENT_TRACE_PROPERTIES, RealTimeBuffersLost) == 100, "ETP.RealTimeBuffersLost");
_Static_assert(offsetof(EVENT_TRACE_PROPERTIES, LoggerThreadId) == 104, "ETP.LoggerThreadId");
_Static_assert(offsetof(EVENT_TRACE_PROPERTIES, LogFileNameOffset) == 112, "ETP.LogFileNameOffset");
_Static_assert(offsetof(EVENT_TRACE_PROPERTIES, LoggerNameOffset) == 116, "ETP.LoggerNameOffset");
_Static_assert(sizeof(EVENT_TRACE_HEADER) == 48, "EVENT_TRACE_HEADER size");
_Static_assert(offsetof(EVENT_TRACE_HEADER, Guid) == 24, "ETH.Guid");
_Static_assert(offsetof(EVENT_TRACE_HEADER, Flags) == 44, "ETH.Flags");
_Static_assert(sizeof(EVENT_INSTANCE_HEADER) == 56, "EVENT_INSTANCE_HEADER size");
_Static_assert(offsetof(EVENT_INSTANCE_HEADER, FieldTypeFlags) == 2, "EIH.FieldTypeFlags");
_Static_assert(offsetof(EVENT_INSTANCE_HEADER, Type) == 4, "EIH.Class.Type");
_Static_assert(offsetof(EVENT_INSTANCE_HEADER, Level) == 5, "EIH.Class.Level");
_Static_assert(offsetof(EVENT_INSTANCE_HEADER, Version) == 6, "EIH.Class.Version");
_Static_assert(offsetof(EVENT_INSTANCE_HEADER, ThreadId) == 8, "EIH.ThreadId");
_Static_assert(offsetof(EVENT_INSTANCE_HEADER, ProcessId) == 12, "EIH.ProcessId");
_Static_assert(offsetof(EVENT_INSTANCE_HEADER, TimeStamp) == 16, "EIH.TimeStamp");
_Static_assert(offsetof(EVENT_INSTANCE_HEADER, RegHandle) == 24, "EIH.RegHandle");
_Static_assert(offsetof(EVENT_INSTANCE_HEADER, InstanceId) == 32, "EIH.InstanceId");
_Static_assert(offsetof(EVENT_INSTANCE_HEADER, ParentInstanceId) == 36, "EIH.ParentInstanceId");
_Static_assert(offsetof(EVENT_INSTANCE_HEADER, EventId) == 40, "EIH.EventId");
_Static_assert(offsetof(EVENT_INSTANCE_HEADER, Flags) == 44, "EIH.Flags");
_Static_assert(offsetof(EVENT_INSTANCE_HEADER, ParentRegHandle) == 48, "EIH.ParentRegHandle");
_Static_assert(sizeof(EVENT_INSTANCE_INFO) == 16, "EVENT_INSTANCE_INFO size");
_Static_assert(offsetof(EVENT_INSTANCE_INFO, InstanceId) == 8, "EII.InstanceId");
_Static_assert(sizeof(TRACE_GUID_REGISTRATION) == 16, "TRACE_GUID_REGISTRATION size");
_Static_assert(offsetof(TRACE_GUID_REGISTRATION, RegHandle) == 8, "TGR.RegHandle");
_Static_assert(sizeof(MOF_FIELD) == 16, "MOF_FIELD size");
_Static_assert(offsetof(MOF_FIELD, Length) == 8, "MOF.Length");
_Static_assert(offsetof(MOF_FIELD, DataType) == 12, "MOF.DataType");

/* ---- constants (winerror.h, evntrace.h, wmistr.h) ---- */
enum {
    ERROR_SUCCESS = 0, ERROR_INVALID_FUNCTION = 1, ERROR_INVALID_HANDLE = 6, ERROR_BAD_LENGTH = 24,
    ERROR_INVALID_PARAMETER = 87, ERROR_BAD_PATHNAME = 161, ERROR_ALREADY_EXISTS = 183,
    ERROR_INVALID_FLAG_NUMBER = 186, ERROR_MORE_DATA = 234, ERROR_INVALID_FLAGS = 1004,
    ERROR_WMI_INSTANCE_NOT_FOUND = 4201
};
#define WNODE_FLAG_TRACED_GUID 0x00020000u
#define WNODE_FLAG_USE_MOF_PTR 0x00100000u
#define EVENT_TRACE_CONTROL_QUERY 0u
#define EVENT_TRACE_CONTROL_STOP 1u
#define EVENT_TRACE_CONTROL_UPDATE 2u
#define EVENT_TRACE_CONTROL_FLUSH 3u
#define WMI_ENABLE_EVENTS 4u
#define WMI_DISABLE_EVENTS 5u
#define MAX_MOF_FIELDS 16
#define INVALID_HANDLE_VALUE64 UINT64_MAX

/* ---- the recording ---- */
#define MAX_ARGS 8
#define MAX_BLOBS 4
typedef struct {
    const char *fn;
    int calls;
    int argc;
    uint64_t args[MAX_ARGS];
    uint8_t *blob[MAX_BLOBS];
    int32_t blob_len[MAX_BLOBS];   /* -1: not recorded (e.g. a NULL pointer) */
} record;

static const char *const FUNCTIONS[] = {
    "StartTraceW", "ControlTraceW", "QueryAllTracesW", "EnableTrace", "EnableTraceEx2", "RegisterTraceGuidsW",
    "UnregisterTraceGuids", "GetTraceLoggerHandle", "GetTraceEnableLevel", "GetTraceEnableFlags", "TraceEvent",
    "TraceEventInstance", "CreateTraceInstanceId", "WMIDPREQUEST", "QueryPerformanceCounter",
    "QueryPerformanceFrequency", "GetSystemTimePreciseAsFileTime", "OpenProcessToken", "LookupPrivilegeValueW", "AdjustTokenPrivileges", "CloseHandle"
};
#define NFUNCTIONS ((int) (sizeof FUNCTIONS / sizeof FUNCTIONS[0]))
static record records[NFUNCTIONS];

static record *rec_find(const char *fn) {
    for (int i = 0; i < NFUNCTIONS; i++) {
        if (strcmp(FUNCTIONS[i], fn) == 0) {
            return &records[i];
        }
    }
    return NULL;
}

/* Starts a new recording of fn's latest call: argument values, blobs cleared. */
static record *rec_begin(const char *fn, int argc, const uint64_t *args) {
    record *r = rec_find(fn);
    r->fn = fn;
    r->calls++;
    r->argc = argc;
    memset(r->args, 0, sizeof r->args);
    memcpy(r->args, args, (size_t) argc * sizeof(uint64_t));
    for (int i = 0; i < MAX_BLOBS; i++) {
        free(r->blob[i]);
        r->blob[i] = NULL;
        r->blob_len[i] = -1;
    }
    return r;
}

static void rec_blob(record *r, int i, const void *p, size_t n) {
    if (p == NULL) {
        return;
    }
    r->blob[i] = malloc(n ? n : 1);
    memcpy(r->blob[i], p, n);
    r->blob_len[i] = (int32_t) n;
}

static void rec_blob_append(record *r, int i, const void *p, size_t n) {
    size_t old = r->blob_len[i] < 0 ? 0 : (size_t) r->blob_len[i];
    r->blob[i] = realloc(r->blob[i], old + n + 1);
    memcpy(r->blob[i] + old, p, n);
    r->blob_len[i] = (int32_t) (old + n);
}

/* UTF-16LE string length in code units, up to the NUL. */
static size_t wlen(const uint16_t *s) {
    size_t n = 0;
    while (s[n] != 0) {
        n++;
    }
    return n;
}

static int wsame_ignore_case(const uint16_t *a, const uint16_t *b) {
    for (;; a++, b++) {
        uint16_t x = *a, y = *b;
        if (x >= 'a' && x <= 'z') x -= 32;
        if (y >= 'a' && y <= 'z') y -= 32;
        if (x != y) return 0;
        if (x == 0) return 1;
    }
}

/* ---- sessions ---- */
#define MAX_SESSIONS 8
#define NAME_CHARS 1024
typedef struct {
    int live;
    uint64_t id;              /* CONTROLTRACE_ID: high bits set on purpose, to catch 32-bit truncation */
    uint64_t logger;          /* TRACELOGGER_HANDLE handed to providers: the same logger id (low 16 bits) as id, other high bits */
    uint16_t name[NAME_CHARS + 1];
    uint32_t events;
    uint32_t enable_level;
    uint32_t enable_flags;
} session;
static session sessions[MAX_SESSIONS];
static uint64_t next_session = 1;

/* ---- providers ---- */
#define MAX_PROVIDERS 4
#define MAX_CLASSES 8
typedef struct {
    int live;
    uint64_t handle;          /* TRACEGUID_HANDLE */
    WMIDPREQUEST callback;
    void *context;
    GUID control;
    uint32_t classes;
    void *class_handles[MAX_CLASSES];
} provider;
static provider providers[MAX_PROVIDERS];
static uint64_t next_provider = 1;
static uint32_t next_instance_id = 0;

/*
 * Which session enables which control GUID. ETW keeps an enable whether the provider is registered
 * or not ("enable a provider before it registers"; a provider whose controller died "remains
 * enabled"), and calls a provider that registers later back once per enabling session.
 */
#define MAX_ENABLES 8
typedef struct { int live; GUID control; uint64_t session_id; } guid_enable;
static guid_enable pending[MAX_ENABLES];

static session *session_by_name(const uint16_t *name) {
    for (int i = 0; i < MAX_SESSIONS; i++) {
        if (sessions[i].live && wsame_ignore_case(sessions[i].name, name)) return &sessions[i];
    }
    return NULL;
}

static session *session_by_id(uint64_t id) {
    for (int i = 0; i < MAX_SESSIONS; i++) {
        if (sessions[i].live && sessions[i].id == id) return &sessions[i];
    }
    return NULL;
}

static session *session_by_logger(uint64_t logger) {
    for (int i = 0; i < MAX_SESSIONS; i++) {
        if (sessions[i].live && sessions[i].logger == logger) return &sessions[i];
    }
    return NULL;
}

static provider *provider_by_guid(const GUID *g) {
    for (int i = 0; i < MAX_PROVIDERS; i++) {
        if (providers[i].live && memcmp(&providers[i].control, g, sizeof(GUID)) == 0) return &providers[i];
    }
    return NULL;
}

static provider *provider_by_class_handle(const void *h) {
    for (int i = 0; i < MAX_PROVIDERS; i++) {
        for (uint32_t k = 0; providers[i].live && k < providers[i].classes; k++) {
            if (providers[i].class_handles[k] == h) return &providers[i];
        }
    }
    return NULL;
}

/* The statistics ControlTrace/QueryAllTraces report: fixed, distinct values plus the event count. */
static void fill_stats(EVENT_TRACE_PROPERTIES *p, const session *s) {
    p->Wnode.HistoricalContext = s->id;
    p->NumberOfBuffers = 11;
    p->FreeBuffers = 7;
    p->EventsLost = 3;
    p->BuffersWritten = s->events;
    p->LogBuffersLost = 2;
    p->RealTimeBuffersLost = 1;
    p->LoggerThreadId = (void *) (uintptr_t) 0x4242;
}

/* Copies the session name to LoggerNameOffset when the caller left room for it, as ETW does. */
static void copy_name_back(EVENT_TRACE_PROPERTIES *p, const session *s) {
    size_t bytes = (wlen(s->name) + 1) * 2;
    if (p->LoggerNameOffset >= sizeof(EVENT_TRACE_PROPERTIES)
            && (uint64_t) p->LoggerNameOffset + bytes <= p->Wnode.BufferSize) {
        memcpy((uint8_t *) p + p->LoggerNameOffset, s->name, bytes);
    }
}

/* When set, callbacks run on a fresh native thread (joined before returning), as ETW may call them. */
static int callback_on_thread = 0;

typedef struct {
    provider *pr;
    uint32_t request;
    WNODE_HEADER *wnode;
    uint32_t *size;
    uint32_t rc;
} callback_call;

static void *callback_thread(void *arg) {
    callback_call *c = arg;
    c->rc = c->pr->callback(c->request, c->pr->context, c->size, c->wnode);
    return NULL;
}

/*
 * Calls a provider's WMIDPREQUEST the way ETW does: request code, the registration's context,
 * the size of the WNODE_HEADER, and a WNODE_HEADER whose HistoricalContext is the logger handle.
 */
static uint32_t notify(provider *pr, session *s, uint32_t request) {
    WNODE_HEADER w;
    memset(&w, 0, sizeof w);
    w.BufferSize = sizeof w;
    w.HistoricalContext = s->logger;
    w.Guid = pr->control;
    w.Flags = WNODE_FLAG_TRACED_GUID;
    uint32_t size = sizeof w;
    callback_call c = {pr, request, &w, &size, 0};
    pthread_t thread;
    if (callback_on_thread && pthread_create(&thread, NULL, callback_thread, &c) == 0) {
        pthread_join(thread, NULL);
    } else {
        callback_thread(&c);
    }
    uint64_t args[4] = {request, (uint64_t) (uintptr_t) pr->context, size, s->logger};
    record *r = rec_begin("WMIDPREQUEST", 4, args);
    r->args[4] = c.rc;
    return c.rc;
}

static uint32_t enable(const GUID *control, session *s, int on, uint32_t flags, uint32_t level) {
    s->enable_flags = on ? flags : 0;
    s->enable_level = on ? level : 0;
    guid_enable *slot = NULL;
    for (int i = 0; i < MAX_ENABLES; i++) {
        if (pending[i].live && pending[i].session_id == s->id && memcmp(&pending[i].control, control, sizeof(GUID)) == 0) {
            slot = &pending[i];
        }
    }
    if (!on && slot != NULL) {
        slot->live = 0;
    }
    for (int i = 0; on && slot == NULL && i < MAX_ENABLES; i++) {
        if (!pending[i].live) {
            slot = &pending[i];
            slot->live = 1;
            slot->control = *control;
            slot->session_id = s->id;
        }
    }
    provider *pr = provider_by_guid(control);
    if (pr != NULL) {
        notify(pr, s, on ? WMI_ENABLE_EVENTS : WMI_DISABLE_EVENTS);
    }
    return ERROR_SUCCESS;
}

/* ---- the exports ---- */

EXPORT uint32_t StartTraceW(uint64_t *TraceId, const uint16_t *InstanceName, EVENT_TRACE_PROPERTIES *Properties) {
    uint64_t a[3] = {(uintptr_t) TraceId, (uintptr_t) InstanceName, (uintptr_t) Properties};
    record *r = rec_begin("StartTraceW", 3, a);
    if (TraceId == NULL || InstanceName == NULL || Properties == NULL) return ERROR_INVALID_PARAMETER;
    *TraceId = 0;   /* "on failure it is 0" */
    size_t nameLen = wlen(InstanceName);
    rec_blob(r, 0, InstanceName, nameLen * 2);
    uint32_t total = Properties->Wnode.BufferSize;
    rec_blob(r, 1, Properties, total < sizeof *Properties ? sizeof *Properties : (total > 65536 ? 65536 : total));
    if (total < sizeof *Properties) return ERROR_BAD_LENGTH;
    if ((Properties->Wnode.Flags & WNODE_FLAG_TRACED_GUID) == 0) return ERROR_INVALID_PARAMETER;
    if (nameLen == 0 || nameLen > NAME_CHARS) return ERROR_INVALID_PARAMETER;
    /* The session name goes at LoggerNameOffset (ETW copies it), the file name after it. */
    uint32_t lno = Properties->LoggerNameOffset, lfo = Properties->LogFileNameOffset;
    if (lno < sizeof *Properties || (uint64_t) lno + (nameLen + 1) * 2 > total) return ERROR_INVALID_PARAMETER;
    if (lfo != 0) {
        if (lfo <= lno || lfo >= total) return ERROR_INVALID_PARAMETER;
        const uint16_t *file = (const uint16_t *) ((const uint8_t *) Properties + lfo);
        rec_blob(r, 2, file, wlen(file) * 2);
    } else if (Properties->LogFileMode == 0) {
        return ERROR_BAD_PATHNAME;   /* "LogFileMode == 0 and LogFileNameOffset == 0" */
    }
    if (Properties->BufferSize > 16384) return ERROR_INVALID_PARAMETER;
    if (session_by_name(InstanceName) != NULL) return ERROR_ALREADY_EXISTS;
    for (int i = 0; i < MAX_SESSIONS; i++) {
        if (!sessions[i].live) {
            session *s = &sessions[i];
            memset(s, 0, sizeof *s);
            s->live = 1;
            s->id = 0x0000000100000000ull | next_session;
            /* A TRACE_ENABLE_CONTEXT names the logger in its low 16 bits, as the session handle does. */
            s->logger = 0xFEED000000000000ull | (s->id & 0xFFFF);
            next_session++;
            memcpy(s->name, InstanceName, nameLen * 2);
            fill_stats(Properties, s);
            copy_name_back(Properties, s);
            *TraceId = s->id;
            return ERROR_SUCCESS;
        }
    }
    return 1450;   /* ERROR_NO_SYSTEM_RESOURCES */
}

EXPORT uint32_t ControlTraceW(uint64_t TraceId, const uint16_t *InstanceName, EVENT_TRACE_PROPERTIES *Properties,
                              uint32_t ControlCode) {
    uint64_t a[4] = {TraceId, (uintptr_t) InstanceName, (uintptr_t) Properties, ControlCode};
    record *r = rec_begin("ControlTraceW", 4, a);
    if (Properties == NULL) return ERROR_INVALID_PARAMETER;
    if (InstanceName != NULL) rec_blob(r, 0, InstanceName, wlen(InstanceName) * 2);
    rec_blob(r, 1, Properties, sizeof *Properties);
    if (Properties->Wnode.BufferSize < sizeof *Properties) return ERROR_BAD_LENGTH;
    if (ControlCode > EVENT_TRACE_CONTROL_FLUSH) return ERROR_INVALID_PARAMETER;
    /* "ETW ignores the handle if SessionName is not NULL" */
    session *s = InstanceName != NULL ? session_by_name(InstanceName) : session_by_id(TraceId);
    if (s == NULL) return ERROR_WMI_INSTANCE_NOT_FOUND;
    fill_stats(Properties, s);
    copy_name_back(Properties, s);
    if (ControlCode == EVENT_TRACE_CONTROL_STOP) {
        s->live = 0;
        for (int i = 0; i < MAX_ENABLES; i++) {
            if (pending[i].session_id == s->id) pending[i].live = 0;   /* a stopped session enables nothing */
        }
    }
    return ERROR_SUCCESS;
}

EXPORT uint32_t QueryAllTracesW(EVENT_TRACE_PROPERTIES **PropertyArray, uint32_t PropertyArrayCount,
                                uint32_t *LoggerCount) {
    uint64_t a[3] = {(uintptr_t) PropertyArray, PropertyArrayCount, (uintptr_t) LoggerCount};
    rec_begin("QueryAllTracesW", 3, a);
    if (PropertyArray == NULL || PropertyArrayCount == 0 || LoggerCount == NULL) return ERROR_INVALID_PARAMETER;
    uint32_t n = 0;
    for (int i = 0; i < MAX_SESSIONS; i++) {
        if (!sessions[i].live) continue;
        if (n < PropertyArrayCount) {
            EVENT_TRACE_PROPERTIES *p = PropertyArray[n];
            if (p == NULL || p->Wnode.BufferSize < sizeof *p) return ERROR_INVALID_PARAMETER;
            fill_stats(p, &sessions[i]);
            copy_name_back(p, &sessions[i]);
        }
        n++;
    }
    *LoggerCount = n;
    return n > PropertyArrayCount ? ERROR_MORE_DATA : ERROR_SUCCESS;
}

EXPORT uint32_t EnableTrace(uint32_t Enable, uint32_t EnableFlag, uint32_t EnableLevel, const GUID *ControlGuid,
                            uint64_t TraceId) {
    uint64_t a[5] = {Enable, EnableFlag, EnableLevel, (uintptr_t) ControlGuid, TraceId};
    record *r = rec_begin("EnableTrace", 5, a);
    if (ControlGuid == NULL) return ERROR_INVALID_PARAMETER;
    rec_blob(r, 0, ControlGuid, sizeof(GUID));
    session *s = session_by_id(TraceId);
    if (s == NULL) return ERROR_INVALID_PARAMETER;
    return enable(ControlGuid, s, Enable != 0, EnableFlag, EnableLevel & 0xFF);
}

EXPORT uint32_t EnableTraceEx2(uint64_t TraceId, const GUID *ProviderId, uint32_t ControlCode, uint8_t Level,
                               uint64_t MatchAnyKeyword, uint64_t MatchAllKeyword, uint32_t Timeout,
                               void *EnableParameters) {
    uint64_t a[8] = {TraceId, (uintptr_t) ProviderId, ControlCode, Level, MatchAnyKeyword, MatchAllKeyword, Timeout,
                     (uintptr_t) EnableParameters};
    record *r = rec_begin("EnableTraceEx2", 8, a);
    if (ProviderId == NULL) return ERROR_INVALID_PARAMETER;
    rec_blob(r, 0, ProviderId, sizeof(GUID));
    session *s = session_by_id(TraceId);
    if (s == NULL) return ERROR_INVALID_PARAMETER;
    if (ControlCode > 2) return ERROR_INVALID_PARAMETER;
    if (ControlCode == 2) return ERROR_SUCCESS;   /* CAPTURE_STATE: classic providers have none */
    /* Classic provider: "MatchAnyKeyword ... same as EnableFlag ... truncated from a ULONGLONG to a ULONG" */
    return enable(ProviderId, s, ControlCode == 1, (uint32_t) MatchAnyKeyword, Level);
}

EXPORT uint32_t RegisterTraceGuidsW(WMIDPREQUEST RequestAddress, void *RequestContext, const GUID *ControlGuid,
                                    uint32_t GuidCount, TRACE_GUID_REGISTRATION *TraceGuidReg,
                                    const uint16_t *MofImagePath, const uint16_t *MofResourceName,
                                    uint64_t *RegistrationHandle) {
    uint64_t a[8] = {(uintptr_t) RequestAddress, (uintptr_t) RequestContext, (uintptr_t) ControlGuid, GuidCount,
                     (uintptr_t) TraceGuidReg, (uintptr_t) MofImagePath, (uintptr_t) MofResourceName,
                     (uintptr_t) RegistrationHandle};
    record *r = rec_begin("RegisterTraceGuidsW", 8, a);
    if (RequestAddress == NULL || ControlGuid == NULL || RegistrationHandle == NULL) return ERROR_INVALID_PARAMETER;
    if (GuidCount > MAX_CLASSES || (GuidCount > 0 && TraceGuidReg == NULL)) return ERROR_INVALID_PARAMETER;
    rec_blob(r, 0, ControlGuid, sizeof(GUID));
    for (uint32_t i = 0; i < GuidCount; i++) {
        if (TraceGuidReg[i].Guid == NULL) return ERROR_INVALID_PARAMETER;
        rec_blob_append(r, 1, TraceGuidReg[i].Guid, sizeof(GUID));   /* the class GUIDs, in order */
    }
    if (provider_by_guid(ControlGuid) != NULL) return ERROR_ALREADY_EXISTS;
    for (int i = 0; i < MAX_PROVIDERS; i++) {
        if (providers[i].live) continue;
        provider *pr = &providers[i];
        memset(pr, 0, sizeof *pr);
        pr->live = 1;
        pr->handle = 0x0000000200000000ull | next_provider;
        pr->callback = RequestAddress;
        pr->context = RequestContext;
        pr->control = *ControlGuid;
        pr->classes = GuidCount;
        for (uint32_t k = 0; k < GuidCount; k++) {
            /* A HANDLE per class: pointer-sized, with bits above 32 to catch truncation. */
            pr->class_handles[k] = (void *) (uintptr_t) (0x0000000300000000ull | (next_provider << 8) | (k + 1));
            TraceGuidReg[k].RegHandle = pr->class_handles[k];
        }
        next_provider++;
        *RegistrationHandle = pr->handle;
        /* "If the GUID is already enabled, registration enables it at once": once per enabling session. */
        uint32_t rc = ERROR_SUCCESS;
        int first = 1;
        for (int p = 0; p < MAX_ENABLES; p++) {
            if (pending[p].live && memcmp(&pending[p].control, ControlGuid, sizeof(GUID)) == 0) {
                session *s = session_by_id(pending[p].session_id);
                if (s != NULL) {
                    uint32_t r = notify(pr, s, WMI_ENABLE_EVENTS);
                    if (first) rc = r;
                    first = 0;
                }
            }
        }
        return rc;
    }
    return 1450;
}

EXPORT uint32_t UnregisterTraceGuids(uint64_t RegistrationHandle) {
    uint64_t a[1] = {RegistrationHandle};
    rec_begin("UnregisterTraceGuids", 1, a);
    for (int i = 0; i < MAX_PROVIDERS; i++) {
        if (providers[i].live && providers[i].handle == RegistrationHandle) {
            providers[i].live = 0;
            return ERROR_SUCCESS;
        }
    }
    return ERROR_INVALID_PARAMETER;
}

EXPORT uint64_t GetTraceLoggerHandle(void *Buffer) {
    uint64_t a[1] = {(uintptr_t) Buffer};
    record *r = rec_begin("GetTraceLoggerHandle", 1, a);
    if (Buffer == NULL) {
        errno = ERROR_INVALID_PARAMETER;
        return INVALID_HANDLE_VALUE64;
    }
    const WNODE_HEADER *w = Buffer;
    rec_blob(r, 0, w, sizeof *w);
    if (session_by_logger(w->HistoricalContext) == NULL) {
        errno = ERROR_INVALID_HANDLE;
        return INVALID_HANDLE_VALUE64;
    }
    return w->HistoricalContext;
}

/* Only the failing paths touch errno (SetLastError): JNA raises LastErrorException when it is non-zero. */
EXPORT uint8_t GetTraceEnableLevel(uint64_t TraceHandle) {
    uint64_t a[1] = {TraceHandle};
    rec_begin("GetTraceEnableLevel", 1, a);
    session *s = session_by_logger(TraceHandle);
    if (s == NULL) {
        errno = ERROR_INVALID_HANDLE;
        return 0;
    }
    return (uint8_t) s->enable_level;
}

EXPORT uint32_t GetTraceEnableFlags(uint64_t TraceHandle) {
    uint64_t a[1] = {TraceHandle};
    rec_begin("GetTraceEnableFlags", 1, a);
    session *s = session_by_logger(TraceHandle);
    if (s == NULL) {
        errno = ERROR_INVALID_HANDLE;
        return 0;
    }
    return s->enable_flags;
}

/* Records the MOF_FIELD array after a header (USE_MOF_PTR) and the data each field points to. */
static uint32_t record_mof(record *r, const uint8_t *header, size_t headerSize, uint32_t size, uint32_t flags,
                           int fieldsBlob, int dataBlob) {
    if ((flags & WNODE_FLAG_USE_MOF_PTR) == 0) {
        rec_blob(r, dataBlob, header + headerSize, size - headerSize);   /* data inline after the header */
        return ERROR_SUCCESS;
    }
    size_t fieldBytes = size - headerSize;
    if (fieldBytes % sizeof(MOF_FIELD) != 0 || fieldBytes / sizeof(MOF_FIELD) > MAX_MOF_FIELDS) {
        return ERROR_INVALID_PARAMETER;
    }
    const MOF_FIELD *f = (const MOF_FIELD *) (header + headerSize);
    rec_blob(r, fieldsBlob, f, fieldBytes);
    rec_blob(r, dataBlob, "", 0);
    for (size_t i = 0; i < fieldBytes / sizeof(MOF_FIELD); i++) {
        if (f[i].Length > 0 && f[i].DataPtr == 0) return ERROR_INVALID_PARAMETER;
        rec_blob_append(r, dataBlob, (const void *) (uintptr_t) f[i].DataPtr, f[i].Length);
    }
    return ERROR_SUCCESS;
}

EXPORT uint32_t TraceEvent(uint64_t TraceHandle, EVENT_TRACE_HEADER *EventTrace) {
    uint64_t a[2] = {TraceHandle, (uintptr_t) EventTrace};
    record *r = rec_begin("TraceEvent", 2, a);
    if (EventTrace == NULL) return ERROR_INVALID_PARAMETER;
    session *s = session_by_logger(TraceHandle);
    if (s == NULL) return ERROR_INVALID_HANDLE;
    if (EventTrace->Size < sizeof *EventTrace) return ERROR_INVALID_PARAMETER;
    rec_blob(r, 0, EventTrace, sizeof *EventTrace);
    if ((EventTrace->Flags & WNODE_FLAG_TRACED_GUID) == 0) return ERROR_INVALID_FLAG_NUMBER;
    uint32_t rc = record_mof(r, (const uint8_t *) EventTrace, sizeof *EventTrace, EventTrace->Size, EventTrace->Flags,
                             1, 2);
    if (rc == ERROR_SUCCESS) s->events++;
    return rc;
}

EXPORT uint32_t TraceEventInstance(uint64_t TraceHandle, EVENT_INSTANCE_HEADER *EventTrace,
                                   EVENT_INSTANCE_INFO *InstInfo, EVENT_INSTANCE_INFO *ParentInstInfo) {
    uint64_t a[4] = {TraceHandle, (uintptr_t) EventTrace, (uintptr_t) InstInfo, (uintptr_t) ParentInstInfo};
    record *r = rec_begin("TraceEventInstance", 4, a);
    /* blobs: 0 header (56 bytes), 1 info, 2 parent info, 3 MOF data the fields point to */
    if (EventTrace == NULL || InstInfo == NULL) return ERROR_INVALID_PARAMETER;
    rec_blob(r, 0, EventTrace, sizeof *EventTrace);
    rec_blob(r, 1, InstInfo, sizeof *InstInfo);
    rec_blob(r, 2, ParentInstInfo, sizeof *InstInfo);   /* NULL stays "not recorded" */
    if (InstInfo->RegHandle == NULL) return ERROR_INVALID_PARAMETER;   /* "InstInfo members NULL" */
    if (ParentInstInfo != NULL && ParentInstInfo->RegHandle == NULL) return ERROR_INVALID_PARAMETER;
    session *s = session_by_logger(TraceHandle);
    if (s == NULL) return ERROR_INVALID_HANDLE;
    if ((EventTrace->Flags & WNODE_FLAG_TRACED_GUID) == 0) return ERROR_INVALID_FLAGS;
    if (EventTrace->Size < sizeof *EventTrace) return ERROR_INVALID_PARAMETER;
    if (provider_by_class_handle((void *) (uintptr_t) EventTrace->RegHandle) == NULL) return ERROR_INVALID_PARAMETER;
    uint32_t rc = record_mof(r, (const uint8_t *) EventTrace, sizeof *EventTrace, EventTrace->Size, EventTrace->Flags,
                             3, 3);
    if (rc == ERROR_SUCCESS) s->events++;
    return rc;
}

EXPORT uint32_t CreateTraceInstanceId(void *RegHandle, EVENT_INSTANCE_INFO *InstInfo) {
    uint64_t a[2] = {(uintptr_t) RegHandle, (uintptr_t) InstInfo};
    rec_begin("CreateTraceInstanceId", 2, a);
    if (RegHandle == NULL || InstInfo == NULL) return ERROR_INVALID_PARAMETER;
    if (provider_by_class_handle(RegHandle) == NULL) return ERROR_INVALID_PARAMETER;
    /* "starts over at 1 when InstanceId reaches the maximum value for a ULONG" */
    next_instance_id = next_instance_id == UINT32_MAX ? 1 : next_instance_id + 1;
    InstInfo->RegHandle = RegHandle;
    InstInfo->InstanceId = next_instance_id;
    return ERROR_SUCCESS;
}

/* kernel32's performance counter: a 10 MHz counter that advances by 1000 ticks per reading. */
static int64_t qpc_now = 123456789;

EXPORT int32_t QueryPerformanceCounter(int64_t *Count) {
    uint64_t a[1] = {(uintptr_t) Count};
    rec_begin("QueryPerformanceCounter", 1, a);
    if (Count == NULL) return 0;
    qpc_now += 1000;
    *Count = qpc_now;
    return 1;
}

EXPORT int32_t QueryPerformanceFrequency(int64_t *Frequency) {
    uint64_t a[1] = {(uintptr_t) Frequency};
    rec_begin("QueryPerformanceFrequency", 1, a);
    if (Frequency == NULL) return 0;
    *Frequency = 10000000;
    return 1;
}

/* kernel32's precise system time: a fixed FILETIME (2022-06-23 04:26:40 UTC plus 1234567 ticks of 100 ns). */
EXPORT void GetSystemTimePreciseAsFileTime(uint64_t *FileTime) {
    uint64_t a[1] = {(uintptr_t) FileTime};
    rec_begin("GetSystemTimePreciseAsFileTime", 1, a);
    if (FileTime != NULL) *FileTime = 133000000000000000ull + 1234567ull;
}

/* ---- accessors for the test (a tiny test-only JNA interface binds these) ---- */

/* How many times fn was called since stub_reset. */
EXPORT int32_t stub_calls(const char *fn) {
    record *r = rec_find(fn);
    return r == NULL ? -1 : r->calls;
}

/* Argument count of fn's latest call. */
EXPORT int32_t stub_argc(const char *fn) {
    record *r = rec_find(fn);
    return r == NULL ? -1 : r->argc;
}

/* Argument i of fn's latest call, widened to 64 bits (pointers as addresses). For WMIDPREQUEST, i == 4 is the callback's result. */
EXPORT uint64_t stub_arg(const char *fn, int32_t i) {
    record *r = rec_find(fn);
    return r == NULL || i < 0 || i >= MAX_ARGS ? 0 : r->args[i];
}

/* Copies blob i of fn's latest call into out (up to cap bytes); returns its length, -1 when not recorded. */
EXPORT int32_t stub_blob(const char *fn, int32_t i, uint8_t *out, int32_t cap) {
    record *r = rec_find(fn);
    if (r == NULL || i < 0 || i >= MAX_BLOBS || r->blob_len[i] < 0) return -1;
    if (out != NULL) memcpy(out, r->blob[i], (size_t) (r->blob_len[i] < cap ? r->blob_len[i] : cap));
    return r->blob_len[i];
}

/* The logger handle a provider of session TraceId receives in its callback. */
EXPORT uint64_t stub_logger_handle(uint64_t TraceId) {
    session *s = session_by_id(TraceId);
    return s == NULL ? 0 : s->logger;
}

/* ---- token privileges (SystemProfilePrivilege): advapi32, plus kernel32's CloseHandle ---- */
typedef struct { uint32_t LowPart; int32_t HighPart; } LUID;
typedef struct { LUID Luid; uint32_t Attributes; } LUID_AND_ATTRIBUTES;
typedef struct { uint32_t PrivilegeCount; LUID_AND_ATTRIBUTES Privileges[1]; } TOKEN_PRIVILEGES;
_Static_assert(sizeof(TOKEN_PRIVILEGES) == 16, "sizeof(TOKEN_PRIVILEGES) (winnt.h: 4-byte aligned)");
_Static_assert(offsetof(TOKEN_PRIVILEGES, Privileges[0].Luid) == 4, "TOKEN_PRIVILEGES.Privileges[0].Luid");
_Static_assert(offsetof(TOKEN_PRIVILEGES, Privileges[0].Attributes) == 12, "TOKEN_PRIVILEGES.Privileges[0].Attributes");
#define STUB_TOKEN ((void *) (uintptr_t) 0x7ABC)
#define STUB_PROFILE_LUID 11u
#define ERROR_NOT_ALL_ASSIGNED 1300
static int privilege_held = 1;

/* BOOL functions: FALSE with SetLastError on failure, as documented. */
EXPORT int32_t OpenProcessToken(void *ProcessHandle, uint32_t DesiredAccess, void **TokenHandle) {
    uint64_t a[3] = {(uintptr_t) ProcessHandle, DesiredAccess, (uintptr_t) TokenHandle};
    rec_begin("OpenProcessToken", 3, a);
    if (TokenHandle == NULL) {
        errno = ERROR_INVALID_PARAMETER;
        return 0;
    }
    *TokenHandle = STUB_TOKEN;
    return 1;
}

EXPORT int32_t LookupPrivilegeValueW(const uint16_t *SystemName, const uint16_t *Name, LUID *Luid) {
    uint64_t a[3] = {(uintptr_t) SystemName, (uintptr_t) Name, (uintptr_t) Luid};
    record *r = rec_begin("LookupPrivilegeValueW", 3, a);
    if (Name == NULL || Luid == NULL) {
        errno = ERROR_INVALID_PARAMETER;
        return 0;
    }
    rec_blob(r, 0, Name, 2 * wlen(Name));
    Luid->LowPart = STUB_PROFILE_LUID;
    Luid->HighPart = 0;
    return 1;
}

/* TRUE also when not every privilege was assigned: the last error then says ERROR_NOT_ALL_ASSIGNED. */
EXPORT int32_t AdjustTokenPrivileges(void *TokenHandle, int32_t DisableAllPrivileges, const TOKEN_PRIVILEGES *NewState,
                                     uint32_t BufferLength, TOKEN_PRIVILEGES *PreviousState, uint32_t *ReturnLength) {
    uint64_t a[6] = {(uintptr_t) TokenHandle, (uint32_t) DisableAllPrivileges, (uintptr_t) NewState, BufferLength,
                     (uintptr_t) PreviousState, (uintptr_t) ReturnLength};
    record *r = rec_begin("AdjustTokenPrivileges", 6, a);
    if (TokenHandle != STUB_TOKEN) {
        errno = ERROR_INVALID_HANDLE;
        return 0;
    }
    if (NewState != NULL) {
        rec_blob(r, 0, NewState, sizeof *NewState);
    }
    errno = privilege_held ? ERROR_SUCCESS : ERROR_NOT_ALL_ASSIGNED;
    return 1;
}

EXPORT int32_t CloseHandle(void *Object) {
    uint64_t a[1] = {(uintptr_t) Object};
    rec_begin("CloseHandle", 1, a);
    if (Object != STUB_TOKEN) {
        errno = ERROR_INVALID_HANDLE;
        return 0;
    }
    return 1;
}

/* 1: the token holds SeSystemProfilePrivilege (an elevated administrator); 0: it does not. */
EXPORT void stub_set_privilege_held(int32_t held) {
    privilege_held = held;
}

/* Sets the next instance id CreateTraceInstanceId hands out minus one (to test the wrap to 1). */
EXPORT void stub_set_last_instance_id(uint32_t id) {
    next_instance_id = id;
}

/* 1: run callbacks on a new native thread (as ETW may); 0: on the calling thread. */
EXPORT void stub_set_callback_thread(int32_t on) {
    callback_on_thread = on;
}

/* Forgets every session, provider, pending enable and recording. */
EXPORT void stub_reset(void) {
    for (int i = 0; i < NFUNCTIONS; i++) {
        for (int b = 0; b < MAX_BLOBS; b++) free(records[i].blob[b]);
    }
    memset(records, 0, sizeof records);
    memset(sessions, 0, sizeof sessions);
    memset(providers, 0, sizeof providers);
    memset(pending, 0, sizeof pending);
    next_instance_id = 0;
    next_session = 1;
    next_provider = 1;
    callback_on_thread = 0;
    privilege_held = 1;
}
