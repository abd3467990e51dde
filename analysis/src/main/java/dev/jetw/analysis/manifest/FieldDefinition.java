package dev.jetw.analysis.manifest;

import java.util.Collections;
import java.util.List;

/**
 * One {@code <data>} or {@code <struct>} of a manifest template: its name, input type ({@code win:UInt32},
 * {@code win:UnicodeString}, ...; null for a struct), output type (hex or not), and the {@code count} and
 * {@code length} attributes, each a number or the name of an earlier field.
 */
final class FieldDefinition {
    final String name;
    final String inType;
    final String outType;
    final String count;
    final String length;
    final List<FieldDefinition> members;

    FieldDefinition(String name, String inType, String outType, String count, String length, List<FieldDefinition> members) {
        this.name = name;
        this.inType = inType;
        this.outType = outType;
        this.count = count;
        this.length = length;
        this.members = members == null ? Collections.<FieldDefinition>emptyList() : members;
    }

    boolean isStruct() {
        return inType == null;
    }

    /** win:Pointer and the hex output types are shown in hex. */
    boolean isHex() {
        return "win:Pointer".equals(inType) || outType != null && outType.startsWith("win:HexInt");
    }
}
