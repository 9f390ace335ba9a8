package io.faultline.kafka;

import io.faultline.core.config.ConfigKey;
import io.faultline.core.config.ConfigKeyCatalog;
import io.faultline.kafka.connection.RecycleMode;
import io.faultline.kafka.phase.PhaseBuckets;
import java.time.Duration;
import java.util.List;

/** The configuration keys of kafka-guard. Each feature's switch is the bool key named like it. */
public final class KafkaConfigKeys implements ConfigKeyCatalog {

  /** Feature: per-request phase timing. */
  public static final String PHASES_FEATURE = "kafka.phases";

  /** Feature: TCP facts of broker connections. */
  public static final String TCP_FEATURE = "kafka.tcp";

  /** Feature: staggered reconnects. */
  public static final String STAGGER_FEATURE = "kafka.stagger";

  /** Feature: recycling crippled connections. */
  public static final String RECYCLE_FEATURE = "kafka.recycle";

  /** Feature: client configuration advice. */
  public static final String ADVICE_FEATURE = "kafka.advice";

  /** Switch of request phase timing. */
  public static final ConfigKey<Boolean> PHASES =
      ConfigKey.bool(
          PHASES_FEATURE,
          true,
          PHASES_FEATURE,
          "Time every Kafka request in phases (queue, transmit, delivery, response, receive) per"
              + " broker node, to show the time spent before the broker has the request.");

  /** A request slower than this triggers a TCP sample of its connection. */
  public static final ConfigKey<Duration> PHASES_SLOW_REQUEST =
      ConfigKey.duration(
          "kafka.phases.slow-request",
          Duration.ofSeconds(1),
          PHASES_FEATURE,
          "A request whose client-observed latency exceeds this is slow: its connection's TCP"
              + " facts are sampled at once instead of waiting for the next interval.");

  /** How long a send may stay unacknowledged before the delivery sampler looks at it. */
  public static final ConfigKey<Duration> PHASES_DELIVERY_AFTER =
      ConfigKey.duration(
          "kafka.phases.delivery-after",
          Duration.ofMillis(5),
          PHASES_FEATURE,
          "The delivery phase (until the broker's TCP acknowledged a request's last byte) is timed"
              + " only for a request still unacknowledged this long after its send completed, which"
              + " is where a request held up before the broker shows: a healthy connection's"
              + " requests are answered sooner, and their delivery is reported merged into"
              + " response_incl_delivery, so a busy producer's sampler stays asleep. The sampler"
              + " looks for such requests this often while some are slow, every 50 ms while each"
              + " is answered in time; a delivery that came before it looked is placed when it"
              + " looked: at most this late, or 50 ms for the first slow request after a healthy"
              + " spell. 0ms samples every send.");

  /** Sustained wake rate of the agent's delivery sampler. */
  public static final ConfigKey<Integer> PHASES_DELIVERY_WAKES_PER_SECOND =
      ConfigKey.integer(
          "kafka.phases.delivery-wakes-per-second",
          200,
          PHASES_FEATURE,
          "While a sent request awaits its TCP acknowledgement, one agent thread reads TCP_INFO"
              + " every 500 µs to time the delivery phase; under sustained traffic it wakes at"
              + " most this often on average (bursts of 50 wakes at 500 µs allowed). Every wake"
              + " costs CPU while requests are outstanding (docs/benchmarks.md has the measured"
              + " cost). Lower it to trade delivery resolution for CPU: a request answered before"
              + " the throttled sampler looks is reported in response_incl_delivery, and one whose"
              + " acknowledgement came between two looks is placed between the last look and the"
              + " response, or reported there when that is long next to its wait. 2000 never"
              + " throttles; below 1 counts as 1.");

  /** Pre-broker time above which a node counts as transmit-bound. */
  public static final ConfigKey<Duration> PHASES_TRANSMIT_BOUND_THRESHOLD =
      ConfigKey.duration(
          "kafka.phases.transmit-bound-threshold",
          Duration.ofMillis(500),
          PHASES_FEATURE,
          "KAFKA_TRANSMIT_BOUND is raised for a node whose mean pre-broker time (queue + transmit +"
              + " delivery) exceeds both this and half its mean request latency while other nodes"
              + " stay below it.");

  /** The bucket bounds of the phase and gap histograms on the agent's Prometheus endpoint. */
  public static final ConfigKey<List<Duration>> PHASES_BUCKETS =
      ConfigKey.durations(
          "kafka.phases.buckets",
          PhaseBuckets.DEFAULT,
          PHASES_FEATURE,
          "Upper bounds (le) of the buckets the request phase and gap timers are written with on"
              + " the agent's Prometheus endpoint, read off the timers' finer histograms at scrape"
              + " time (each bound within 6.25 %), so a p99 per broker can be computed and added"
              + " up across instances. Each bound is one series per timer tag set; keep the list"
              + " short and the same on every instance. Quote it in an agent argument:"
              + " kafka.phases.buckets=\"1ms,10ms,100ms,1s\".");

  /** Switch of broker connection TCP facts. */
  public static final ConfigKey<Boolean> TCP =
      ConfigKey.bool(
          TCP_FEATURE,
          true,
          TCP_FEATURE,
          "Read TCP_INFO of every broker connection (window scaling, RTT, windows, retransmits,"
              + " delivery rate) and raise findings for crippled connections. Linux only.");

  /** How often each broker connection is sampled. */
  public static final ConfigKey<Duration> TCP_INTERVAL =
      ConfigKey.duration(
          "kafka.tcp.interval",
          Duration.ofSeconds(10),
          TCP_FEATURE,
          "How often each broker connection's TCP facts are sampled; slow requests sample at once.");

  /** Whether the per-broker meters carry {@code client.id}. */
  public static final ConfigKey<Boolean> METERS_CLIENT_ID =
      ConfigKey.bool(
          "kafka.meters.client-id",
          false,
          PHASES_FEATURE,
          "Tag the request phase timers and the connection gauges with client.id as well. Off,"
              + " a series covers every client of one type talking to one node (the gauges show"
              + " the worst connection), so 1,000 producers cost the series and heap of one; the"
              + " status page lists every client either way. On, each client has its own series:"
              + " about 35 series and 32 KB of heap per producer.");

  /** Switch of the reconnect gate. */
  public static final ConfigKey<Boolean> STAGGER =
      ConfigKey.bool(
          STAGGER_FEATURE,
          true,
          STAGGER_FEATURE,
          "Spread reconnects: a client that lost its connection to a broker waits a random delay"
              + " in [0, kafka.stagger.window) before connecting to it again, so a broker restart"
              + " or a leader election is not a SYN flood.");

  /** The reconnect window. */
  public static final ConfigKey<Duration> STAGGER_WINDOW =
      ConfigKey.duration(
          "kafka.stagger.window",
          Duration.ofSeconds(3),
          STAGGER_FEATURE,
          "Upper bound of the random reconnect delay. 3s spreads thousands of clients over 30"
              + " periods of 100 ms while staying far below the 30 s request.timeout.ms and 120 s"
              + " delivery.timeout.ms defaults; it is capped further per client by"
              + " kafka.stagger.max-timeout-fraction.");

  /** Fraction of the client's shortest relevant timeout the window may take. */
  public static final ConfigKey<Double> STAGGER_MAX_TIMEOUT_FRACTION =
      ConfigKey.decimal(
          "kafka.stagger.max-timeout-fraction",
          0.25,
          STAGGER_FEATURE,
          "The window is capped per client to this fraction of the shortest of its"
              + " delivery.timeout.ms, request.timeout.ms and max.poll.interval.ms, so a delay can"
              + " never time a request or a consumer group membership out.");

  /** Process-wide connect rate limit. */
  public static final ConfigKey<Integer> STAGGER_MAX_CONNECTS_PER_SECOND =
      ConfigKey.integer(
          "kafka.stagger.max-connects-per-second",
          0,
          STAGGER_FEATURE,
          "At most this many new broker connections per second from this JVM (a token bucket"
              + " shared by every client); 0 turns the limit off.");

  /** Start-up jitter for a client's first connection. */
  public static final ConfigKey<Duration> STAGGER_STARTUP_JITTER =
      ConfigKey.duration(
          "kafka.stagger.startup-jitter",
          Duration.ZERO,
          STAGGER_FEATURE,
          "A new client waits a random delay in [0, this) before its first connection, so many"
              + " clients started at once (a Kafka Connect cluster, as in the Tencent CKafka"
              + " incident) do not connect at once. 0s: off.");

  /** Connection recycling: off, warn (decide and report) or on (close and reconnect). */
  public static final ConfigKey<RecycleMode> RECYCLE =
      ConfigKey.enumKey(
          RECYCLE_FEATURE,
          RecycleMode.class,
          RecycleMode.WARN,
          RECYCLE_FEATURE,
          "What to do with a broker connection confirmed crippled (no window scaling or a"
              + " collapsed window, ceiling far below demand, for kafka.recycle.samples samples)."
              + " on: close it through the client's own disconnect path so in-flight requests are"
              + " retried and it reconnects; warn: count it as would_recycle and leave it; off: no"
              + " recycle decisions. The connection's TCP findings are raised in every mode.");

  /** Consecutive crippled samples before recycling. */
  public static final ConfigKey<Integer> RECYCLE_SAMPLES =
      ConfigKey.integer(
          "kafka.recycle.samples",
          3,
          RECYCLE_FEATURE,
          "Consecutive TCP samples that must show a connection crippled before it is recycled.");

  /** Minimum time between two recycles of one node. */
  public static final ConfigKey<Duration> RECYCLE_MIN_INTERVAL =
      ConfigKey.duration(
          "kafka.recycle.min-interval",
          Duration.ofMinutes(5),
          RECYCLE_FEATURE,
          "A node's connection is recycled at most once per this interval per client.");

  /** Demand over ceiling that counts as crippled. */
  public static final ConfigKey<Double> RECYCLE_DEMAND_RATIO =
      ConfigKey.decimal(
          "kafka.recycle.demand-ratio",
          0.8,
          RECYCLE_FEATURE,
          "A connection without window scaling counts as crippled when its measured delivery rate,"
              + " not limited by the application, reaches this fraction of its throughput ceiling"
              + " (window / RTT): it is running into the ceiling.");

  /** Switch of configuration advice. */
  public static final ConfigKey<Boolean> ADVICE =
      ConfigKey.bool(
          ADVICE_FEATURE,
          true,
          ADVICE_FEATURE,
          "Check each client's configuration once (socket buffers against the bandwidth-delay"
              + " product, the no-jitter reconnect backoff) and log the advice.");

  /** Public so {@link java.util.ServiceLoader} can create it. */
  public KafkaConfigKeys() {}

  @Override
  public List<ConfigKey<?>> keys() {
    return List.of(
        PHASES,
        PHASES_SLOW_REQUEST,
        PHASES_DELIVERY_AFTER,
        PHASES_DELIVERY_WAKES_PER_SECOND,
        PHASES_TRANSMIT_BOUND_THRESHOLD,
        PHASES_BUCKETS,
        TCP,
        TCP_INTERVAL,
        METERS_CLIENT_ID,
        STAGGER,
        STAGGER_WINDOW,
        STAGGER_MAX_TIMEOUT_FRACTION,
        STAGGER_MAX_CONNECTS_PER_SECOND,
        STAGGER_STARTUP_JITTER,
        RECYCLE,
        RECYCLE_SAMPLES,
        RECYCLE_MIN_INTERVAL,
        RECYCLE_DEMAND_RATIO,
        ADVICE);
  }
}
