package dev.jetw.analysis.manifest;

import java.util.List;

/**
 * One {@code <event>} of a manifest: provider, id and version (the key a record is found by), its symbol
 * ({@code GCStart_V2}), task and opcode names, and the fields of its template (none without one).
 */
final class EventDefinition {
    final String provider;
    final int id;
    final int version;
    final String symbol;
    final String task;
    final String opcode;
    final List<FieldDefinition> fields;

    EventDefinition(String provider, int id, int version, String symbol, String task, String opcode, List<FieldDefinition> fields) {
        this.provider = provider;
        this.id = id;
        this.version = version;
        this.symbol = symbol;
        this.task = task;
        this.opcode = opcode;
        this.fields = fields;
    }

    /** "GarbageCollection/Start" (task/opcode, as manifest-based viewers name events), else the symbol, else "id N". */
    String displayName() {
        if (task != null) {
            return opcode == null ? task : task + "/" + opcode;
        }
        return symbol != null ? symbol : "id " + id;
    }
}
