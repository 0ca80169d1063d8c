"""The honoured subset of a listen filter and the capabilities advertised from it."""

from __future__ import annotations

from mcp_types import (
    PromptsCapability,
    ResourcesCapability,
    ServerCapabilities,
    SubscriptionFilter,
    ToolsCapability,
)

from shared.server.subscriptions import DELIVERED, advertised, honored

EVERYTHING = SubscriptionFilter(
    tools_list_changed=True,
    prompts_list_changed=True,
    resources_list_changed=True,
    resource_subscriptions=["brain://a", "brain://b"],
)
CAPABILITIES = ServerCapabilities(
    tools=ToolsCapability(list_changed=True),
    prompts=PromptsCapability(list_changed=True),
    resources=ResourcesCapability(subscribe=True, list_changed=True),
)


def test_brain_honours_nothing_and_omits_every_type() -> None:
    assert honored(EVERYTHING) == SubscriptionFilter()
    assert honored(EVERYTHING).model_dump(by_alias=True, exclude_none=True) == {}


def test_honoured_is_the_intersection_with_what_is_delivered() -> None:
    delivered = SubscriptionFilter(tools_list_changed=True, resource_subscriptions=["brain://b"])
    requested = SubscriptionFilter(
        tools_list_changed=True,
        prompts_list_changed=True,
        resource_subscriptions=["brain://a", "brain://b"],
    )
    assert honored(requested, delivered) == SubscriptionFilter(
        tools_list_changed=True, resource_subscriptions=["brain://b"]
    )
    assert honored(SubscriptionFilter(), delivered) == SubscriptionFilter()


def test_capabilities_claim_only_what_is_delivered() -> None:
    quiet = advertised(CAPABILITIES, DELIVERED)
    assert quiet.tools == ToolsCapability(list_changed=False)
    assert quiet.prompts == PromptsCapability(list_changed=False)
    assert quiet.resources == ResourcesCapability(subscribe=False, list_changed=False)
    loud = advertised(CAPABILITIES, EVERYTHING)
    assert loud.tools == ToolsCapability(list_changed=True)
    assert loud.resources == ResourcesCapability(subscribe=True, list_changed=True)
    assert advertised(ServerCapabilities(), DELIVERED) == ServerCapabilities()
