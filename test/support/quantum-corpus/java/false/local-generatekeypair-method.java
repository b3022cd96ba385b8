package com.example.games;

import java.security.SecureRandom;
import java.util.List;

public class Tournament {
    private final SecureRandom random = new SecureRandom();

    /** Pairs two players for a round; nothing to do with cryptography. */
    public List<String> generateKeyPair(List<String> players) {
        int first = random.nextInt(players.size());
        int second = (first + 1) % players.size();
        return List.of(players.get(first), players.get(second));
    }

    public List<String> nextRound(List<String> players) {
        return generateKeyPair(players);
    }
}
