import { freePort } from './free-port.js';
import { OwnNats } from './own-nats.js';

const CLUSTER_NAME = 'vds-soak';

/**
 * Three NATS servers with JetStream routed into one cluster on loopback
 * ports, each with its own store, so that the work stream can keep three
 * replicas and one node can die while the other two keep a quorum.
 */
export async function startNatsCluster(runDir: string, size = 3): Promise<OwnNats[]> {
  const routePorts: number[] = [];
  for (let index = 0; index < size; index += 1) routePorts.push(await freePort());
  const nodes: OwnNats[] = [];
  for (const [index, routePort] of routePorts.entries()) {
    const serverName = `nats-${index + 1}`;
    const routes = routePorts.filter((port) => port !== routePort).map((port) => `nats://127.0.0.1:${port}`);
    nodes.push(await OwnNats.create(runDir, serverName, { clusterName: CLUSTER_NAME, serverName, routePort, routes }));
  }
  // Together: a node's JetStream is healthy only once a quorum has elected a meta leader.
  try {
    await Promise.all(nodes.map((node) => node.startAgain()));
  } catch (error) {
    await Promise.all(nodes.map((node) => node.kill()));
    throw error;
  }
  return nodes;
}
