// web/src/features/compose/emoji.ts — the emoji picker's curated set: common Unicode emoji in the
// groups people look for them by. Plain characters, no images or library: the system font draws
// them, and each counts as the API counts it (code points: ❤️ is two, the heart and VS16).
import type { MessageKey } from '../../i18n/messages';

export interface EmojiGroup {
  id: string;
  label: MessageKey;
  emoji: string[];
}

const split = (s: string) => s.split(' ');

export const EMOJI_GROUPS: EmojiGroup[] = [
  {
    id: 'smileys',
    label: 'emoji.smileys',
    emoji: split(
      '😀 😃 😄 😁 😆 😅 🤣 😂 🙂 🙃 😉 😊 😇 🥰 😍 🤩 😘 😗 😚 😋 😛 😜 🤪 😝 🤑 🤗 🤭 🤫 🤔 🤐 🤨 😐 😑 😶 😏 😒 🙄 😬 😌 😔 😪 🤤 😴 😷 🤒 🤕 🤢 🤮 🥵 🥶 🥴 😵 🤯 🤠 🥳 😎 🤓 🧐 😕 😟 🙁 😮 😯 😲 😳 🥺 😦 😧 😨 😰 😥 😢 😭 😱 😖 😣 😞 😓 😩 😫 🥱 😤 😡 😠 🤬 😈 💀 🤡 👻 👽 🤖 💩 😺 😸 😹 😻 😼 😽 🙀 😿 😾',
    ),
  },
  {
    id: 'people',
    label: 'emoji.people',
    emoji: split(
      '👍 👎 👌 🤌 ✌️ 🤞 🤟 🤘 🤙 👈 👉 👆 👇 ☝️ ✋ 🤚 🖐️ 🖖 👋 👏 🙌 👐 🤲 🤝 🙏 ✍️ 💪 🦾 👀 👂 👃 🧠 👶 🧒 👦 👧 🧑 👨 👩 🧓 👴 👵 🙋 🙇 🤦 🤷 💃 🕺 👯 🧘',
    ),
  },
  {
    id: 'hearts',
    label: 'emoji.hearts',
    emoji: split(
      '❤️ 🧡 💛 💚 💙 💜 🖤 🤍 🤎 💔 ❣️ 💕 💞 💓 💗 💖 💘 💝 💯 💢 💥 💫 💦 💨 💬 💭 💤 ✨ 🌟 ⭐ 🔥 🎉 🎊 ✅ ❌ ❓ ❗ ⚠️ 🆗 🆒 🆕 🔝',
    ),
  },
  {
    id: 'nature',
    label: 'emoji.nature',
    emoji: split(
      '🐶 🐱 🐭 🐹 🐰 🦊 🐻 🐼 🐨 🐯 🦁 🐮 🐷 🐸 🐵 🙈 🙉 🙊 🐔 🐧 🐦 🐤 🦆 🦉 🐺 🐴 🦄 🐝 🦋 🐌 🐞 🐢 🐍 🐙 🐬 🐳 🐟 🐠 🦈 🌸 🌹 🌺 🌻 🌼 🌷 🌱 🌲 🌳 🌴 🌵 🍀 🍁 🍂 🌈 ☀️ 🌤️ ⛅ ☁️ 🌧️ ⛈️ ❄️ ☃️ 🌙 🌍',
    ),
  },
  {
    id: 'food',
    label: 'emoji.food',
    emoji: split(
      '🍎 🍊 🍋 🍌 🍉 🍇 🍓 🍒 🍑 🥭 🍍 🥝 🍅 🥑 🌽 🌶️ 🥔 🍞 🧀 🍳 🍔 🍟 🍕 🌭 🥪 🌮 🍜 🍝 🍣 🍱 🥟 🍤 🍙 🍚 🍛 🍲 🥮 🍡 🍦 🍰 🎂 🍫 🍬 🍭 🍩 🍪 🥛 ☕ 🍵 🧋 🍺 🍻 🥂 🍷 🥤',
    ),
  },
  {
    id: 'activities',
    label: 'emoji.activities',
    emoji: split(
      '⚽ 🏀 🏈 ⚾ 🎾 🏐 🏓 🏸 🥊 🎯 🎳 🎮 🎲 🧩 🎨 🎬 🎤 🎧 🎵 🎶 🎸 🎹 🏆 🥇 🏅 🎁 🎈 🧧 🏮 🎆 🎇 🚗 🚕 🚌 🚄 ✈️ 🚀 🚲 🏠 🏫 🏥 🏖️ ⛰️ 🗻 🏯 🗼',
    ),
  },
  {
    id: 'objects',
    label: 'emoji.objects',
    emoji: split('📱 💻 ⌚ 📷 📺 💡 📚 📖 ✏️ 📝 📌 📎 ✂️ 🔒 🔑 💰 💸 💳 📦 📅 ⏰ ⌛ 🎀 👓 👗 👟 👑 💄 💍 🌂 💊 🧸 🛒'),
  },
];
