package io.faultline.kafka.phase;

import java.util.Locale;

/**
 * {@code api} tag values: the lowercase {@code ApiKeys} constant name ({@code produce}, {@code
 * fetch}, {@code metadata}), looked up once per id. kafka-clients is only read when it is on the
 * class path (else a table of the ids known today answers); an id neither knows becomes {@code
 * api_<id>}.
 */
final class ApiNames {

  private static final int MAX_ID = 256;

  /**
   * kafka-clients 4.4's names by id, for a client that the agent cannot see: kafka-clients in a
   * plugin class loader, apart from the agent's own. The requests clients send have kept their ids
   * and names; a few later, broker-side ids were renamed between versions.
   */
  private static final String[] KNOWN =
      ("produce fetch list_offsets metadata leader_and_isr stop_replica update_metadata "
              + "controlled_shutdown offset_commit offset_fetch find_coordinator join_group "
              + "heartbeat leave_group sync_group describe_groups list_groups sasl_handshake "
              + "api_versions create_topics delete_topics delete_records init_producer_id "
              + "offset_for_leader_epoch add_partitions_to_txn add_offsets_to_txn end_txn "
              + "write_txn_markers txn_offset_commit describe_acls create_acls delete_acls "
              + "describe_configs alter_configs alter_replica_log_dirs describe_log_dirs "
              + "sasl_authenticate create_partitions create_delegation_token "
              + "renew_delegation_token expire_delegation_token describe_delegation_token "
              + "delete_groups elect_leaders incremental_alter_configs "
              + "alter_partition_reassignments list_partition_reassignments offset_delete "
              + "describe_client_quotas alter_client_quotas describe_user_scram_credentials "
              + "alter_user_scram_credentials vote begin_quorum_epoch end_quorum_epoch "
              + "describe_quorum alter_partition update_features envelope fetch_snapshot "
              + "describe_cluster describe_producers broker_registration broker_heartbeat "
              + "unregister_broker describe_transactions list_transactions allocate_producer_ids "
              + "consumer_group_heartbeat consumer_group_describe controller_registration "
              + "get_telemetry_subscriptions push_telemetry assign_replicas_to_dirs "
              + "list_config_resources describe_topic_partitions share_group_heartbeat "
              + "share_group_describe share_fetch share_acknowledge add_raft_voter "
              + "remove_raft_voter update_raft_voter initialize_share_group_state "
              + "read_share_group_state write_share_group_state delete_share_group_state "
              + "read_share_group_state_summary streams_group_heartbeat streams_group_describe "
              + "describe_share_group_offsets alter_share_group_offsets "
              + "delete_share_group_offsets streams_group_topology_description_update "
              + "unregister_controller ")
          .trim()
          .split(" ");

  private static final String[] NAMES = new String[MAX_ID];

  private ApiNames() {}

  /** The tag value of API key {@code id}. */
  public static String of(short id) {
    if (id < 0 || id >= MAX_ID) {
      return "api_" + id;
    }
    String name = NAMES[id];
    if (name == null) {
      name = lookUp(id);
      NAMES[id] = name; // a benign race: every thread computes the same string
    }
    return name;
  }

  private static String lookUp(short id) {
    try {
      return org.apache.kafka.common.protocol.ApiKeys.forId(id).name().toLowerCase(Locale.ROOT);
    } catch (RuntimeException | LinkageError e) {
      return fromTable(id);
    }
  }

  /** The name from the table of known ids, else {@code api_<id>}. */
  static String fromTable(short id) {
    return id >= 0 && id < KNOWN.length ? KNOWN[id] : "api_" + id;
  }
}
