package io.faultline.jooq.postgres;

import java.util.Locale;
import java.util.Map;

/**
 * One spelling for each {@code pg_stat_slru} cache across PostgreSQL 13-18: PostgreSQL 17 renamed
 * them ({@code MultiXactMember} became {@code multixact_member}). Names are matched ignoring case
 * and underscores and reported with the PostgreSQL 17 spelling, so tags stay one fixed set.
 */
public final class SlruNames {

  /** The MultiXact member cache, the one the Channel.io PostgreSQL outage thrashed. */
  public static final String MULTIXACT_MEMBER = "multixact_member";

  private static final Map<String, String> CANONICAL =
      Map.ofEntries(
          Map.entry("multixactmember", MULTIXACT_MEMBER),
          Map.entry("multixactoffset", "multixact_offset"),
          Map.entry("committs", "commit_timestamp"),
          Map.entry("committimestamp", "commit_timestamp"),
          Map.entry("notify", "notify"),
          Map.entry("serial", "serializable"),
          Map.entry("serializable", "serializable"),
          Map.entry("subtrans", "subtransaction"),
          Map.entry("subtransaction", "subtransaction"),
          Map.entry("xact", "transaction"),
          Map.entry("transaction", "transaction"),
          Map.entry("other", "other"));

  private SlruNames() {}

  /** The PostgreSQL 17 spelling of {@code name}; {@code other} for a cache this does not know. */
  public static String canonical(String name) {
    if (name == null) {
      return "other";
    }
    String key = name.replace("_", "").toLowerCase(Locale.ROOT);
    return CANONICAL.getOrDefault(key, "other");
  }
}
