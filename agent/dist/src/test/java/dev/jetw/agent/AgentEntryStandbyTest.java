package dev.jetw.agent;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** What premain takes as a standby start itself (everything else goes on to the core, which refuses standby there). */
class AgentEntryStandbyTest {

    @Test
    void onlyTheWholeOptionStringStandbyIsAStandbyStart() {
        for (String standby : new String[] {"standby", " standby ", "STANDBY", "Standby"}) {
            assertTrue(AgentEntry.isStandby(standby), standby);
        }
        for (String other : new String[] {null, "", "standby,include=com.acme.**", "include=com.acme.**,standby", "standby=true",
                "standby=", "standbys", "include=standby"}) {
            assertFalse(AgentEntry.isStandby(other), String.valueOf(other));
        }
    }
}
