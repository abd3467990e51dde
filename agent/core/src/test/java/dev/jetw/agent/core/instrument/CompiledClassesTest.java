package dev.jetw.agent.core.instrument;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The attach ramp's reading of {@code Compiler.codelist}: which classes hold compiled code in use. */
class CompiledClassesTest {

    @Test
    void takesTheClassOfEachCompiledMethodInUse() {
        String listing = String.join("\n",
                "13 0 0 java.lang.System.arraycopy(Ljava/lang/Object;ILjava/lang/Object;II)V [0x1, 0x2 - 0x3]",
                "14 1 0 java.lang.module.ModuleDescriptor.name()Ljava/lang/String; [0x1, 0x2 - 0x3]",
                "10 4 1 java.lang.Object.<init>()V [0x1, 0x2 - 0x3]",
                "1487 2 0 org.h2.command.query.Select$LazyResultQueryFlat.<init>(Lorg/h2/command/query/Select;I)V [0x1, 0x2 - 0x3]",
                "1490 4 0 org.h2.value.Value.compareTo(Lorg/h2/value/Value;)I [0x1, 0x2 - 0x3]",
                "",
                "not a line of the list");
        assertEquals(new TreeSet<>(Set.of("java.lang.module.ModuleDescriptor", "org.h2.command.query.Select$LazyResultQueryFlat", "org.h2.value.Value")),
                new TreeSet<>(CompiledClasses.parse(listing)),
                "a native wrapper (level 0) holds no code of its class to lose; state 1 is code already not entrant");
    }
}
