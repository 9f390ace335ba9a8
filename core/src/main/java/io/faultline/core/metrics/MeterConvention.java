package io.faultline.core.metrics;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The naming convention every declared meter follows, in one place: lowercase dotted names under
 * {@code faultline.}, a base unit and a description on every meter, and tag keys from {@link
 * #TAG_KEYS} only, one key per concept, each with values from a small fixed set. {@code
 * docs/metrics.md} states the same rules; {@link #violations} is what the catalog tests check.
 */
public final class MeterConvention {

  /** Lowercase, dotted; segments may use {@code _} (e.g. {@code snd_wnd}). */
  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9]*(\\.[a-z0-9_]+)*");

  /**
   * Every tag key a declared meter may carry, with the concept it stands for. A new concept gets a
   * new key here; a concept already here reuses its key.
   */
  public static final Map<String, String> TAG_KEYS = tagKeys();

  /**
   * Keys that are refused whatever the meter, each with the reason: synonyms of a concept that has
   * its key already, and keys whose values are unbounded.
   */
  public static final Map<String, String> REFUSED_KEYS = refusedKeys();

  private MeterConvention() {}

  private static Map<String, String> tagKeys() {
    Map<String, String> keys = new LinkedHashMap<>();
    keys.put("outcome", "what happened: how an operation or a decision ended");
    keys.put("kind", "which of several kinds of the counted thing (e.g. which timeout)");
    keys.put("id", "a finding type's id");
    keys.put("severity", "a finding's severity");
    keys.put("module", "an agent instrumentation module");
    keys.put("destination", "a host:port connected to, capped by net.churn.max-destinations");
    keys.put("slru", "a PostgreSQL SLRU cache");
    keys.put("pool", "a connection pool's name");
    keys.put("port", "a TCP port this process listens on (its own listeners, not the agent's)");
    keys.put(
        "client.type",
        "the kind of Kafka client: producer, consumer, admin, connect; on a broker"
            + " replica_fetcher, raft, controller_channel, transaction_coordinator; else other");
    keys.put(
        "client",
        "a client of a listener of this process, by its client id where known (a Kafka broker)"
            + " else its address: only the top five per listener and meter, the rest as other");
    keys.put("node.id", "a Kafka broker's node id");
    keys.put("api", "a Kafka request's API");
    keys.put("phase", "a phase of a Kafka request");
    return Collections.unmodifiableMap(keys);
  }

  private static Map<String, String> refusedKeys() {
    Map<String, String> keys = new LinkedHashMap<>();
    for (String synonym : List.of("result", "event", "action", "decision", "status", "state")) {
      keys.put(synonym, "names what happened: use outcome");
    }
    for (String unbounded : List.of("client.id", "client_id", "clientid", "clientId")) {
      keys.put(unbounded, "values are user text without bound: use client.type");
    }
    for (String unbounded : List.of("thread", "sql", "query", "pid", "host", "url", "user")) {
      keys.put(unbounded, "values are unbounded");
    }
    return Collections.unmodifiableMap(keys);
  }

  /**
   * What is wrong with {@code meters} under the convention, one line per problem naming the meter;
   * empty when they all follow it. Also reports {@link #TAG_KEYS} itself naming a concept twice.
   */
  public static List<String> violations(Collection<MeterDoc> meters) {
    List<String> problems = new ArrayList<>();
    Map<String, String> keyOfConcept = new HashMap<>();
    TAG_KEYS.forEach(
        (key, concept) -> {
          String other = keyOfConcept.putIfAbsent(concept, key);
          if (other != null) {
            problems.add("tag keys " + other + " and " + key + " name one concept: " + concept);
          }
          if (REFUSED_KEYS.containsKey(key)) {
            problems.add("tag key " + key + " is both allowed and refused");
          }
        });
    for (MeterDoc meter : meters) {
      String name = meter.name();
      if (!NAME.matcher(name).matches()) {
        problems.add(name + ": name is not lowercase and dotted");
      }
      if (!name.startsWith("faultline.")) {
        problems.add(name + ": name does not start with faultline.");
      }
      if (meter.baseUnit().isBlank()) {
        problems.add(name + ": no base unit");
      }
      if (meter.description().isBlank()) {
        problems.add(name + ": no description");
      }
      for (String key : meter.tagKeys()) {
        if (REFUSED_KEYS.containsKey(key)) {
          problems.add(name + ": tag key " + key + " " + REFUSED_KEYS.get(key));
        } else if (!TAG_KEYS.containsKey(key)) {
          problems.add(
              name
                  + ": tag key "
                  + key
                  + " is not one of "
                  + TAG_KEYS.keySet()
                  + " (add it there)");
        }
      }
      if (Set.copyOf(meter.tagKeys()).size() != meter.tagKeys().size()) {
        problems.add(name + ": a tag key is declared twice");
      }
    }
    return problems;
  }
}
