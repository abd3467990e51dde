package testapp.order;

/** Twelve methods for the method-budget tests; loaded only by name, in a loader of the test's own, never by the test class path. */
public class P {
    public int p0(int x) { return x + 0; }
    public int p1(int x) { return x + 1; }
    public int p2(int x) { return x + 2; }
    public int p3(int x) { return x + 3; }
    public int p4(int x) { return x + 4; }
    public int p5(int x) { return x + 5; }
    public int p6(int x) { return x + 6; }
    public int p7(int x) { return x + 7; }
    public int p8(int x) { return x + 8; }
    public int p9(int x) { return x + 9; }
    public int p10(int x) { return x + 10; }
    public int p11(int x) { return x + 11; }
}
