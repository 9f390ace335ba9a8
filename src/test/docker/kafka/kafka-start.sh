#!/bin/bash
# Starts one KRaft node (broker + controller) of the test Kafka cluster, in a container or, when no
# Docker engine answers, as a child process of the tests. Everything comes from the environment:
#   KAFKA_NODE_ID                 node id (1)
#   KAFKA_CLUSTER_ID              cluster id shared by all nodes
#   KAFKA_ADVERTISED_HOST         address clients should use (default: this container's own address)
#   KAFKA_BROKER_PORT             client listener port (9092)
#   KAFKA_CONTROLLER_PORT         controller listener port (9093)
#   KAFKA_CONTROLLER_QUORUM_VOTERS  id@host:port,... (default: this node alone)
#   KAFKA_JMX_PORT                when set, remote JMX (no auth, no TLS) on this port of the advertised
#                                 address, RMI on the same port (tests read broker metrics)
#   KAFKA_LIBS, KAFKA_LOG4J_CONFIG, KAFKA_DATA_DIR, KAFKA_HEAP_OPTS, JAVA
#   KAFKA_CFG_<NAME>              any broker property: KAFKA_CFG_SOCKET_LISTEN_BACKLOG_SIZE=50 sets
#                                 socket.listen.backlog.size (`_` is `.`, `__` is `_`)
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
node_id="${KAFKA_NODE_ID:-1}"
cluster_id="${KAFKA_CLUSTER_ID:-4L6g3nShT-eMCtK--X86sw}"
host="${KAFKA_ADVERTISED_HOST:-$(hostname -i | awk '{print $1}')}"
broker_port="${KAFKA_BROKER_PORT:-9092}"
controller_port="${KAFKA_CONTROLLER_PORT:-9093}"
voters="${KAFKA_CONTROLLER_QUORUM_VOTERS:-${node_id}@${host}:${controller_port}}"
libs="${KAFKA_LIBS:-$here/libs}"
log4j="${KAFKA_LOG4J_CONFIG:-$here/log4j2.properties}"
data="${KAFKA_DATA_DIR:-/var/lib/kafka/data}"
java="${JAVA:-java}"

mkdir -p "$data"
props="$data/../server-${node_id}.properties"
cat > "$props" <<PROPS
process.roles=broker,controller
node.id=${node_id}
controller.quorum.voters=${voters}
listeners=PLAINTEXT://:${broker_port},CONTROLLER://:${controller_port}
advertised.listeners=PLAINTEXT://${host}:${broker_port}
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
log.dirs=${data}
num.partitions=1
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=true
PROPS
for var in $(compgen -e | grep '^KAFKA_CFG_' || true); do
  name="${var#KAFKA_CFG_}"
  name="$(echo "$name" | tr 'A-Z' 'a-z' | sed -e 's/__/\x01/g' -e 's/_/./g' -e 's/\x01/_/g')"
  echo "${name}=${!var}" >> "$props"
done

cp="$libs/*"
jmx=()
if [ -n "${KAFKA_JMX_PORT:-}" ]; then
  jmx=(-Dcom.sun.management.jmxremote -Dcom.sun.management.jmxremote.port="$KAFKA_JMX_PORT"
       -Dcom.sun.management.jmxremote.rmi.port="$KAFKA_JMX_PORT"
       -Dcom.sun.management.jmxremote.authenticate=false -Dcom.sun.management.jmxremote.ssl=false
       -Djava.rmi.server.hostname="$host")
fi
"$java" -cp "$cp" -Dlog4j2.configurationFile="$log4j" kafka.tools.StorageTool format \
  -t "$cluster_id" -c "$props" --ignore-formatted >/dev/null
exec "$java" ${KAFKA_HEAP_OPTS:--Xms256m -Xmx512m} -XX:+UseSerialGC -XX:TieredStopAtLevel=1 \
  "${jmx[@]}" -Dlog4j2.configurationFile="$log4j" -cp "$cp" kafka.Kafka "$props"
