package dev.jetw.agent.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ControlOptionsTest {

    @Test
    void findsCommandAndOutAmongTheCoresOptions() {
        ControlOptions o = ControlOptions.of("include=com.acme.**;org.x.*#run, command=status ,out=/tmp/a=b.txt,level=verbose");
        assertEquals("status", o.command);
        assertEquals("/tmp/a=b.txt", o.out);
        assertTrue(o.isSessionCommand());
    }

    @Test
    void plainAttachAndExplicitAttachStartASession() {
        assertFalse(ControlOptions.of("include=com.acme.**").isSessionCommand());
        assertFalse(ControlOptions.of("command=attach,include=com.acme.**").isSessionCommand());
        assertTrue(ControlOptions.of("command=detach").isSessionCommand());
    }

    @Test
    void nullAndMalformedOptionsAreTolerated() {
        ControlOptions o = ControlOptions.of(null);
        assertNull(o.command);
        assertNull(o.out);
        assertNull(ControlOptions.of("garbage,,=x").out);
    }
}
