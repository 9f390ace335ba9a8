package io.faultline.kafka.phase;

/**
 * Splits the requests of one broker connection into {@link Phase phases} from events the agent's
 * advice reports, each with a {@link System#nanoTime()} timestamp, and hands every finished request
 * to a {@link PhaseRecorder}.
 *
 * <p>Kafka holds one send at a time per channel and sends requests in the order {@code
 * NetworkClient.doSend} created them, and a broker answers a connection's requests in order; so
 * sends are matched to requests by order and responses by correlation id (or order when the id is
 * unknown). Requests that expect no response ({@code acks=0}) finish when their send completes.
 *
 * <p>Delivery is known only from TCP_INFO: the tracker counts the bytes handed to the socket since
 * the connection opened; a request is delivered once the kernel's {@code bytes_acked} reaches its
 * last byte. Linux counts the SYN as one acknowledged byte ({@value #SYN_OCTETS}; checked against a
 * real broker connection in the integration suite), so the count starts there. Without TCP samples
 * delivery is merged into the response phase and reported as {@code -1}.
 *
 * <p>Not thread-safe, by design: every method is called on the thread that drives the client's
 * {@code NetworkClient}/{@code Selector}, which Kafka already confines to one thread at a time;
 * only {@link #wireOffset} may be read from another (a delivery sampler's). Primitive arrays, eight
 * slots at first and doubled when more requests are in flight (up to {@value #CAPACITY}): an agent
 * tracks thousands of connections and most never have more than a few requests in flight. No
 * allocation per request once grown. Never throws on out-of-order input: an event that matches
 * nothing is counted in {@link #unmatchedEvents()} and ignored.
 */
public final class ConnectionPhaseTracker {

  /** Requests in flight tracked per connection; more than Kafka's max.in.flight ever is. */
  public static final int CAPACITY = 128;

  /** What Linux's {@code tcpi_bytes_acked} counts before the first data byte: the SYN. */
  public static final long SYN_OCTETS = 1;

  private static final int INITIAL_CAPACITY = 8;
  private static final long UNSET = Long.MIN_VALUE;

  private final PhaseRecorder recorder;
  private boolean deliveryObservable;
  // What a new connection starts with: deliveryUnobservable() is about one connection, not the
  // node.
  private final boolean observableAtOpen;

  private int mask = INITIAL_CAPACITY - 1;
  private int[] correlationId = new int[INITIAL_CAPACITY];
  private short[] apiKey = new short[INITIAL_CAPACITY];
  private boolean[] expectResponse = new boolean[INITIAL_CAPACITY];
  private boolean[] finished = new boolean[INITIAL_CAPACITY];
  private long[] created = new long[INITIAL_CAPACITY];
  private long[] firstWrite = new long[INITIAL_CAPACITY];
  private long[] lastWrite = new long[INITIAL_CAPACITY];
  private long[] acked = new long[INITIAL_CAPACITY];
  private long[] responseStart = new long[INITIAL_CAPACITY];
  private long[] streamEnd = new long[INITIAL_CAPACITY];

  // Sequence numbers; a request's slot is its sequence & mask.
  private long head; // oldest request not finished
  private long sending; // the request whose bytes are being written
  private long delivering; // oldest sent request not yet known to be acknowledged
  private long responding; // oldest sent request whose response has not completed
  private long tail; // next request

  // The latest TCP_INFO sample: when it was read and how far it found the stream acknowledged. A
  // request it found unacknowledged was delivered after it.
  private long lookAt = UNSET;
  private long lookAcked;

  private long streamOffset = SYN_OCTETS; // sequence space of the completed sends
  // Sequence space of every byte written so far, a send's part included: read by another thread.
  private volatile long wireOffset = SYN_OCTETS;
  // A TLS connection: the wire carries records, counted apart (recordBytesWritten), and a send ends
  // where that count stands when it completes.
  private boolean recordsOnWire;
  private long unmatched;
  private long dropped;

  /**
   * A tracker for a connection that has just opened.
   *
   * @param recorder where finished requests go
   * @param deliveryObservable whether TCP_INFO samples ({@link #tcpSample}) will come; when false
   *     delivery is merged into the response phase
   */
  public ConnectionPhaseTracker(PhaseRecorder recorder, boolean deliveryObservable) {
    this.recorder = recorder == null ? PhaseRecorder.NONE : recorder;
    this.deliveryObservable = deliveryObservable;
    this.observableAtOpen = deliveryObservable;
  }

  /**
   * A request was created: {@code NetworkClient.doSend} (before {@code Selector.send}).
   *
   * @param correlation the request header's correlation id
   * @param api the request's {@code ApiKeys} id
   * @param responseExpected {@code ClientRequest.expectResponse()}; false for {@code acks=0}
   * @param nowNanos {@link System#nanoTime()}
   */
  public void requestCreated(int correlation, short api, boolean responseExpected, long nowNanos) {
    if (tail - head > mask) {
      if (mask + 1 < CAPACITY) {
        grow();
      } else {
        // More in flight than any sane max.in.flight: start over rather than mismatch.
        dropped += tail - head;
        head = sending = delivering = responding = tail;
      }
    }
    int i = (int) (tail & mask);
    correlationId[i] = correlation;
    apiKey[i] = api;
    expectResponse[i] = responseExpected;
    finished[i] = false;
    created[i] = nowNanos;
    firstWrite[i] = UNSET;
    lastWrite[i] = UNSET;
    acked[i] = UNSET;
    responseStart[i] = UNSET;
    tail++;
  }

  /**
   * Bytes of the current send were handed to the socket ({@code KafkaChannel.write} wrote more than
   * zero bytes). Call it on every write: the first of a send times it, and every one counts the
   * bytes on the wire ({@link #wireOffset}).
   *
   * @param bytes how many bytes this write handed to the socket
   * @param nowNanos {@link System#nanoTime()}
   */
  public void bytesWritten(long bytes, long nowNanos) {
    wireOffset += bytes; // this thread's alone: a volatile write, read by a sampler thread
    writeSeen(nowNanos);
  }

  /**
   * A TLS layer took bytes of the current send to encrypt ({@code KafkaChannel.write} on a TLS
   * connection): times the send like {@link #bytesWritten}; the bytes on the wire are the records'
   * ({@link #recordBytesWritten}).
   */
  public void plaintextWritten(long nowNanos) {
    recordsOnWire = true;
    writeSeen(nowNanos);
  }

  /**
   * A TLS layer handed {@code bytes} bytes of records to the socket. From then on this connection's
   * count of bytes on the wire ({@link #wireOffset}) is these, and a send ends where the count
   * stands when it completes: its last record is in the kernel by then (Kafka completes a send over
   * TLS only once its records are flushed).
   */
  public void recordBytesWritten(long bytes) {
    recordsOnWire = true;
    wireOffset += bytes;
  }

  private void writeSeen(long nowNanos) {
    if (sending == tail) {
      unmatched++;
      return;
    }
    int i = (int) (sending & mask);
    if (firstWrite[i] == UNSET) {
      firstWrite[i] = nowNanos;
    }
  }

  /**
   * The current send completed: its last byte was handed to the socket ({@code Selector.write}
   * adding it to {@code completedSends}).
   *
   * @param sizeBytes the send's size in bytes ({@code NetworkSend.size()}), for delivery matching
   *     (on a TLS connection the records' count is used instead: see {@link #recordBytesWritten})
   * @param nowNanos {@link System#nanoTime()}
   */
  public void sendCompleted(long sizeBytes, long nowNanos) {
    if (sending == tail) {
      unmatched++;
      return;
    }
    int i = (int) (sending & mask);
    if (firstWrite[i] == UNSET) {
      firstWrite[i] = nowNanos;
    }
    lastWrite[i] = nowNanos;
    streamOffset = recordsOnWire ? wireOffset : streamOffset + sizeBytes;
    streamEnd[i] = streamOffset;
    sending++;
    if (!deliveryObservable) {
      delivering = sending;
    }
    if (!expectResponse[i]) {
      finished[i] = true;
      recorder.record(apiKey[i], firstWrite[i] - created[i], nowNanos - firstWrite[i], -1, -1, -1);
      advanceHead();
    }
  }

  /** Whether a sent request waits for the kernel to report it acknowledged: sample TCP_INFO now. */
  public boolean awaitingDelivery() {
    return deliveryObservable && delivering < sending;
  }

  /**
   * When the oldest send still awaiting its acknowledgement completed ({@link System#nanoTime()}),
   * or {@link Long#MIN_VALUE} when none awaits (see {@link #awaitingDelivery}).
   */
  public long awaitingDeliverySince() {
    return awaitingDelivery() ? lastWrite[(int) (delivering & mask)] : Long.MIN_VALUE;
  }

  /**
   * The stream offset at the end of the last completed send, in {@code tcpi_bytes_acked}'s units:
   * while a sample reads less, sent bytes are still on their way to the broker.
   */
  public long sentStreamOffset() {
    return streamOffset;
  }

  /**
   * The stream offset just past every byte handed to the socket so far, the current send's part
   * included, in {@code tcpi_bytes_acked}'s units; any thread may read it. Less the bytes the
   * kernel holds unacknowledged ({@code SIOCOUTQ}) it is the acknowledged offset, or less than it
   * when a write lands between the two reads: never more.
   */
  public long wireOffset() {
    return wireOffset;
  }

  /**
   * The stream offset at the end of the oldest send awaiting its acknowledgement (the one {@link
   * #awaitingDeliverySince} times), or {@link Long#MIN_VALUE} when none awaits.
   */
  public long awaitingDeliveryEnd() {
    return awaitingDelivery() ? streamEnd[(int) (delivering & mask)] : Long.MIN_VALUE;
  }

  /**
   * A TCP_INFO sample of this connection taken while a send was outstanding, including one that
   * found the count unchanged since the last: a request it found unacknowledged was delivered after
   * it.
   *
   * @param bytesAcked {@code tcpi_bytes_acked}
   * @param nowNanos when it was read
   */
  public void tcpSample(long bytesAcked, long nowNanos) {
    lookAt = nowNanos;
    lookAcked = bytesAcked;
    while (delivering < sending) {
      int i = (int) (delivering & mask);
      if (streamEnd[i] > bytesAcked) {
        return;
      }
      acked[i] = nowNanos;
      delivering++;
    }
  }

  /**
   * This connection's delivery cannot be read (TCP_INFO unreadable, or its bytes on the wire are
   * not the requests'): merge delivery into the response until the connection closes.
   */
  public void deliveryUnobservable() {
    deliveryObservable = false;
    delivering = sending;
  }

  /** The first bytes of a response arrived ({@code NetworkReceive} read its size). */
  public void responseStarted(long nowNanos) {
    long r = nextResponding();
    if (r < 0) {
      unmatched++;
      return;
    }
    int i = (int) (r & mask);
    if (responseStart[i] == UNSET) {
      responseStart[i] = nowNanos;
      if (acked[i] == UNSET) {
        acked[i] = deliveredBetweenLooks(i, nowNanos);
      }
    }
    // The broker answers only once it has the whole request: nothing before it awaits delivery.
    if (delivering <= r) {
      delivering = r + 1;
    }
  }

  /**
   * A response completed ({@code Selector.addToCompletedReceives}).
   *
   * @param correlation the response header's correlation id, or {@code -1} when unknown (then the
   *     oldest request awaiting a response is taken)
   * @param nowNanos {@link System#nanoTime()}
   * @return the request's client-observed latency in nanoseconds, or {@code -1} when no request
   *     matched
   */
  public long responseCompleted(int correlation, long nowNanos) {
    long r = nextResponding();
    if (r < 0) {
      unmatched++;
      return -1;
    }
    if (correlation != -1 && correlationId[(int) (r & mask)] != correlation) {
      long found = -1;
      for (long s = r + 1; s < sending; s++) {
        int j = (int) (s & mask);
        if (!finished[j] && expectResponse[j] && correlationId[j] == correlation) {
          found = s;
          break;
        }
      }
      if (found < 0) {
        unmatched++;
        return -1;
      }
      for (long s = r; s < found; s++) {
        int j = (int) (s & mask);
        if (!finished[j]) {
          finished[j] = true;
          dropped++;
        }
      }
      r = found;
    }
    int i = (int) (r & mask);
    long start = responseStart[i] == UNSET ? nowNanos : responseStart[i];
    long sent = lastWrite[i];
    long delivered = acked[i];
    long delivery;
    long response;
    if (delivered == UNSET && responseStart[i] == UNSET) {
      delivered = deliveredBetweenLooks(i, start);
    }
    if (delivered != UNSET && delivered <= start) {
      delivery = delivered - sent;
      response = start - delivered;
    } else {
      delivery = -1;
      response = start - sent;
    }
    finished[i] = true;
    responding = r + 1;
    if (delivering < responding) {
      delivering = responding;
    }
    recorder.record(
        apiKey[i],
        firstWrite[i] - created[i],
        sent - firstWrite[i],
        delivery,
        response,
        nowNanos - start);
    advanceHead();
    return nowNanos - created[i];
  }

  /**
   * When request {@code i}, whose acknowledgement no sample saw before its response started at
   * {@code start}, was delivered, or {@link #UNSET}; asked when the response starts, before a later
   * sample replaces the last one. The last sample that found it unacknowledged bounds it: the
   * delivery came between that sample and the response. A sampler that looks less often under
   * sustained slow traffic (its wake budget) can miss an acknowledgement that the response follows
   * closely, after a hold of seconds most of all; the middle of that interval places it to within
   * half its length, and is taken only where that is at most an eighth of the delivery's known
   * part, the wait until the sample. Otherwise the delivery stays merged.
   */
  private long deliveredBetweenLooks(int i, long start) {
    long sent = lastWrite[i];
    if (lookAt == UNSET || lookAt <= sent || lookAt > start || lookAcked >= streamEnd[i]) {
      return UNSET;
    }
    long between = start - lookAt;
    return between <= (lookAt - sent) / 4 ? lookAt + between / 2 : UNSET;
  }

  /**
   * The connection closed: everything in flight is forgotten, the byte count starts over and the
   * next connection's delivery is observable again unless the tracker was made without it ({@link
   * #deliveryUnobservable} was about the closed one).
   */
  public void reset() {
    dropped += tail - head;
    head = sending = delivering = responding = tail;
    streamOffset = SYN_OCTETS;
    wireOffset = SYN_OCTETS;
    lookAt = UNSET;
    recordsOnWire = false;
    deliveryObservable = observableAtOpen;
  }

  /** Requests created and not yet finished. */
  public int inFlight() {
    return (int) (tail - head);
  }

  /** Events that matched no request (a bug in the caller, or a request created before tracking). */
  public long unmatchedEvents() {
    return unmatched;
  }

  /** Requests forgotten without being recorded (connection closed, mismatch, overflow). */
  public long droppedRequests() {
    return dropped;
  }

  /** Doubles the ring, keeping every request in flight at its sequence number's new slot. */
  private void grow() {
    int capacity = (mask + 1) * 2;
    int newMask = capacity - 1;
    int[] correlationId2 = new int[capacity];
    short[] apiKey2 = new short[capacity];
    boolean[] expectResponse2 = new boolean[capacity];
    boolean[] finished2 = new boolean[capacity];
    long[] created2 = new long[capacity];
    long[] firstWrite2 = new long[capacity];
    long[] lastWrite2 = new long[capacity];
    long[] acked2 = new long[capacity];
    long[] responseStart2 = new long[capacity];
    long[] streamEnd2 = new long[capacity];
    for (long seq = head; seq < tail; seq++) {
      int from = (int) (seq & mask);
      int to = (int) (seq & newMask);
      correlationId2[to] = correlationId[from];
      apiKey2[to] = apiKey[from];
      expectResponse2[to] = expectResponse[from];
      finished2[to] = finished[from];
      created2[to] = created[from];
      firstWrite2[to] = firstWrite[from];
      lastWrite2[to] = lastWrite[from];
      acked2[to] = acked[from];
      responseStart2[to] = responseStart[from];
      streamEnd2[to] = streamEnd[from];
    }
    correlationId = correlationId2;
    apiKey = apiKey2;
    expectResponse = expectResponse2;
    finished = finished2;
    created = created2;
    firstWrite = firstWrite2;
    lastWrite = lastWrite2;
    acked = acked2;
    responseStart = responseStart2;
    streamEnd = streamEnd2;
    mask = newMask;
  }

  /** The slots allocated now (grows with the requests in flight, up to {@link #CAPACITY}). */
  int capacity() {
    return mask + 1;
  }

  private long nextResponding() {
    while (responding < sending) {
      int i = (int) (responding & mask);
      if (expectResponse[i] && !finished[i]) {
        return responding;
      }
      responding++;
    }
    return -1;
  }

  private void advanceHead() {
    while (head < sending && finished[(int) (head & mask)]) {
      head++;
    }
    if (delivering < head) {
      delivering = head;
    }
    if (responding < head) {
      responding = head;
    }
  }
}
