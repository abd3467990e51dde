package testapp.order;

/** Twelve methods for the method-budget tests; loaded only by name, in a loader of the test's own, never by the test class path. */
public class S {
    public int s0(int x) { return x + 0; }
    public int s1(int x) { return x + 1; }
    public int s2(int x) { return x + 2; }
    public int s3(int x) { return x + 3; }
    public int s4(int x) { return x + 4; }
    public int s5(int x) { return x + 5; }
    public int s6(int x) { return x + 6; }
    public int s7(int x) { return x + 7; }
    public int s8(int x) { return x + 8; }
    public int s9(int x) { return x + 9; }
    public int s10(int x) { return x + 10; }
    public int s11(int x) { return x + 11; }
}
