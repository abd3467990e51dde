package dev.jetw.bootstrap;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OptionTokenizerTest {

    private static final List<String> LIST_KEYS = List.of("mode", "kernel", "jvm");

    private static List<String> entries(List<String[]> pairs) {
        return pairs.stream().map(kv -> kv[0] + "|" + kv[1]).collect(Collectors.toList());
    }

    @Test
    void splitsAtCommasAndTheFirstEqualsTrimmingKeysAndValuesKeepingSpellingOrderAndRepeats() {
        assertEquals(List.of("include|org.h2.**@verbose@1ms", "File|/tmp/a=b.etl", "include|com.acme.*#run", "level|verbose"),
                entries(OptionTokenizer.tokenize(" include = org.h2.**@verbose@1ms ,File=/tmp/a=b.etl,,include=com.acme.*#run, level=verbose,",
                        LIST_KEYS)));
        assertEquals(List.of(), OptionTokenizer.tokenize(null, LIST_KEYS));
        assertEquals(List.of(), OptionTokenizer.tokenize(" , ", LIST_KEYS));
        assertEquals(List.of("name|"), entries(OptionTokenizer.tokenize("name=", LIST_KEYS)));
    }

    @Test
    void aBareTokenContinuesTheListKeyBeforeItJoinedWithPlus() {
        assertEquals(List.of("Kernel|process+thread+cswitch", "file|x.etl", "jvm|gc+park", "mode|circular"),
                entries(OptionTokenizer.tokenize("Kernel=process, thread ,cswitch,file=x.etl,jvm=gc,park,mode=circular", LIST_KEYS)));
        assertEquals(List.of("kernel|process+thread+cswitch"), entries(OptionTokenizer.tokenize("kernel=process+thread,cswitch", LIST_KEYS)));
    }

    @Test
    void whatIsNotKeyValueIsRefusedWithTheKeyTheValueAndWhy() {
        OptionTokenizer.Malformed bare = assertThrows(OptionTokenizer.Malformed.class,
                () -> OptionTokenizer.tokenize("include=com.acme.*,org.foo.Bar", LIST_KEYS));
        assertEquals("org.foo.Bar", bare.key);
        assertEquals("(no value)", bare.value);
        assertEquals("org.foo.Bar=(no value): expected key=value; a bare value may only continue a list key (mode, kernel, jvm)",
                bare.getMessage());
        OptionTokenizer.Malformed keyless = assertThrows(OptionTokenizer.Malformed.class, () -> OptionTokenizer.tokenize("=64", LIST_KEYS));
        assertEquals("", keyless.key);
        assertEquals("=64: expected key=value; the key is missing", keyless.getMessage());
        // A key=value entry ends a list: a bare token after it continues nothing.
        assertThrows(OptionTokenizer.Malformed.class, () -> OptionTokenizer.tokenize("kernel=process,file=x.etl,cswitch", LIST_KEYS));
    }

    @Test
    void lenientlyWhatIsNotKeyValueIsSkippedAndNoListIsContinued() {
        assertEquals(List.of("include|com.acme.**;org.x.*#run", "command|status", "out|/tmp/a=b.txt", "level|verbose"),
                entries(OptionTokenizer.tokenizeLeniently("include=com.acme.**;org.x.*#run, command=status ,out=/tmp/a=b.txt,level=verbose")));
        assertEquals(List.of("kernel|process", "out|x"), entries(OptionTokenizer.tokenizeLeniently("garbage,,=x,kernel=process,thread,out=x")));
        assertTrue(OptionTokenizer.tokenizeLeniently(null).isEmpty());
    }
}
