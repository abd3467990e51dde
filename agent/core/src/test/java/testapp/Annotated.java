package testapp;

/** One method carries the application's annotation, one does not. */
public class Annotated {

    @Timed
    public int timed() {
        return untimed() + 1;
    }

    public int untimed() {
        return 1;
    }
}
