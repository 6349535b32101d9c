#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>

namespace oe {

// A growable byte buffer that, unlike std::vector, does not zero what it is about to
// overwrite: batches are refilled from the file at memory speed.
class ByteBuffer
{
public:
    std::uint8_t *data() { return m_data.get(); }
    const std::uint8_t *data() const { return m_data.get(); }
    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    void clear() { m_size = 0; }

    // New bytes past the old size are uninitialised; existing bytes are kept.
    void resize(std::size_t size)
    {
        if (size > m_capacity) {
            const std::size_t capacity = std::max(size, m_capacity + m_capacity / 2);
            auto grown = std::make_unique_for_overwrite<std::uint8_t[]>(capacity);
            if (m_size)
                std::memcpy(grown.get(), m_data.get(), m_size);
            m_data = std::move(grown);
            m_capacity = capacity;
        }
        m_size = size;
    }
    // Replaces the contents with [from, from + count) (which may not alias this buffer).
    void assign(const std::uint8_t *from, std::size_t count)
    {
        m_size = 0;
        resize(count);
        if (count)
            std::memcpy(m_data.get(), from, count);
    }
    void swap(ByteBuffer &other) noexcept
    {
        std::swap(m_data, other.m_data);
        std::swap(m_size, other.m_size);
        std::swap(m_capacity, other.m_capacity);
    }
    std::uint8_t &operator[](std::size_t i) { return m_data[i]; }
    std::uint8_t operator[](std::size_t i) const { return m_data[i]; }

private:
    std::unique_ptr<std::uint8_t[]> m_data;
    std::size_t m_size = 0;
    std::size_t m_capacity = 0;
};

} // namespace oe
