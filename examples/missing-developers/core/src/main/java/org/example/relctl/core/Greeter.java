package org.example.relctl.core;

/** Greets whoever is releasing today. */
public final class Greeter {
    private Greeter() {
    }

    /**
     * Builds a greeting.
     *
     * @param name who to greet
     * @return the greeting
     */
    public static String greet(String name) {
        return "Hello, " + name + "!";
    }
}
