package dev.jetw.agent.core.methods;

import dev.jetw.agent.core.options.AgentOptions;
import dev.jetw.agent.core.options.Rule;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Rules claim a method most specific first, whatever order the options give them in. */
class RuleSpecificityTest {

    private static final TypeDescription CALLS = TypeDescription.ForLoadedType.of(testapp.Calls.class);

    private static long choose(Selection s, String method) {
        MethodDescription m = CALLS.getDeclaredMethods().filter(named(method)).getOnly();
        return s.choose(CALLS, m);
    }

    private static List<String> order(String options) {
        List<String> l = new ArrayList<>();
        for (Rule r : new Selection(AgentOptions.parse(options)).rules()) {
            l.add(r.toString());
        }
        return l;
    }

    @Test
    void aMethodRuleClaimsItsMethodBeforeAPackageRuleListedFirst() {
        Selection s = new Selection(AgentOptions.parse("include=testapp.**@verbose;testapp.Calls#leaf@critical"));
        assertEquals(0, Selection.groupOf(choose(s, "leaf")));
        assertEquals(1, Selection.levelOf(choose(s, "leaf")));
        assertEquals(1, Selection.groupOf(choose(s, "run")));
        assertEquals(5, Selection.levelOf(choose(s, "run")));
    }

    @Test
    void orderIsMethodGlobThenLongerClassPrefixThenLongerMethodPrefixThenAsGiven() {
        assertEquals(List.of("a.b.C#get*@4", "a.b.C#*@4", "a.b.**@4", "a.x.**@4", "a.**@4", "@org.Ann@4"),
                order("annotation=org.Ann,include=a.**;a.b.**;a.x.**;a.b.C#*;a.b.C#get*"));
    }
}
