#include "runtime/actor_address.hpp"

#include <gtest/gtest.h>

namespace robocaf::runtime {
namespace {

TEST(ActorAddress, KeysNameTeamRobotAndKind) {
  EXPECT_EQ(address_key(make_address(msg::BLUE, 3, msg::ACTOR_MOTOR)), "blue/3/motor");
  EXPECT_EQ(address_key(make_address(msg::YELLOW, 0, msg::ACTOR_COACH)), "yellow/team/coach");
  EXPECT_EQ(address_key(make_address(msg::TEAM_UNSPECIFIED, 0, msg::ACTOR_WORLD)), "world");
  EXPECT_EQ(kind_name(msg::ACTOR_WORLD_KNOWLEDGE), "world_knowledge");
  EXPECT_EQ(short_enum_name("ROLE_ATTACKER"), "attacker");
  EXPECT_EQ(short_enum_name("COACH_PLACE"), "place");
}

TEST(ActorAddress, CanonicalOrderIsTeamThenRobotThenKind) {
  EXPECT_TRUE(address_less(make_address(msg::BLUE, 5, msg::ACTOR_MOTOR), make_address(msg::YELLOW, 1, msg::ACTOR_MOTOR)));
  EXPECT_TRUE(address_less(make_address(msg::BLUE, 1, msg::ACTOR_MOTOR), make_address(msg::BLUE, 2, msg::ACTOR_PERCEPTION)));
  EXPECT_TRUE(address_less(make_address(msg::BLUE, 1, msg::ACTOR_PERCEPTION), make_address(msg::BLUE, 1, msg::ACTOR_MOTOR)));
  EXPECT_FALSE(address_less(make_address(msg::BLUE, 1, msg::ACTOR_MOTOR), make_address(msg::BLUE, 1, msg::ACTOR_MOTOR)));
}

}  // namespace
}  // namespace robocaf::runtime
